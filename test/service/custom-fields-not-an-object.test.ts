import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, ErrorBody } from '../helpers/api-types.js';

/**
 * custom_fields sent as JSON text, as some clients serialise it twice: the 400 said "Invalid input:
 * expected record, received string". It now says an object is wanted, with an example, and that
 * this was a string.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));
await api.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] });
const ada = (await api.post<Contact>('/v1/contacts', { first_name: 'Ada', phone: '+14155550100', custom_fields: { tier: 'silver' } })).body;

t.test('custom_fields as a string: a 400 saying to send the object itself', async (t) => {
  const text = JSON.stringify({ tier: 'gold' });
  for (const [path, body] of [
    ['/v1/contacts', { first_name: 'Bob', phone: '+14155550101', custom_fields: text }],
    [`/v1/contacts/${ada.id}`, { custom_fields: text }],
    ['/v1/deals', { name: 'Big', custom_fields: text }],
  ] as const) {
    const res = await api.send<ErrorBody>(path.startsWith('/v1/contacts/') ? 'PATCH' : 'POST', path, { body });
    t.equal(res.status, 400, path);
    t.equal(res.body.error.param, 'custom_fields', path);
    t.equal(
      res.body.error.message,
      'custom_fields: must be a JSON object of custom field keys to values, e.g. {"tier": "gold"}, not a string: send the object itself, not JSON text of it',
      path,
    );
  }
  t.match((await api.get<Contact>(`/v1/contacts/${ada.id}`)).body.custom_fields, { tier: 'silver' }, 'nothing changed');
});

t.test('a list, null or a number: said as such', async (t) => {
  const create = (custom_fields: unknown) => api.post<ErrorBody>('/v1/contacts', { first_name: 'Bob', phone: '+14155550102', custom_fields });
  t.match((await create([])).body.error.message, /JSON object .*, not a list$/);
  t.match((await create(null)).body.error.message, /, not null: to clear one field, give its key with null/);
  t.match((await create(5)).body.error.message, /, not a number$/);
});
