import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Contact, ErrorBody } from '../helpers/api-types.js';

/**
 * A first name "\u202Eevil" was stored and shown reversed ("live"), reversing too whatever the
 * console or an agent wrote after it on the line. Bidirectional embeddings, overrides and isolates
 * are now a 400 in names; the marks that right-to-left and mixed names use stay fine.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));
const count = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from contacts where workspace_id = $1', [ws.workspace.id]))[0]?.n);
const MESSAGE = /must not contain bidirectional embedding, override or isolate characters/;

t.test('an override or isolate in a name is a 400 naming the field', async (t) => {
  const before = await count();
  for (const [field, value] of [
    ['first_name', '\u202Eevil'],
    ['first_name', 'Ada \u202Dx'],
    ['last_name', 'Love\u2067lace'],
  ] as const) {
    const res = await api.post<ErrorBody>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0151', [field]: value });
    t.equal(res.status, 400, `${field} ${JSON.stringify(value)}`);
    t.equal(res.body.error.param, field);
    t.match(res.body.error.message, MESSAGE);
  }
  const deal = await api.post<ErrorBody>('/v1/deals', { name: 'Deal \u202E' + 'gnp.exe' });
  t.equal(deal.body.error.param, 'name', 'a deal name too');
  t.match(deal.body.error.message, MESSAGE);
  t.equal(await count(), before, 'nothing was stored');
});

t.test('right-to-left names, their marks, and a phone copied with its direction wrapping are fine', async (t) => {
  const res = await api.post<Contact>('/v1/contacts', { first_name: 'محمد\u200F', last_name: 'שָׁלוֹם', phone: '\u202A+1 415 555 0152\u202C' });
  t.equal(res.status, 201);
  t.equal(res.body.phone, '+14155550152');
});
