import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { ErrorBody } from '../helpers/api-types.js';

/**
 * Several misspelt names in one request: every one is named with its own "did you mean", so a
 * client fixes them all in one try (the body's 400 named them without a hint or the valid list,
 * the query's listed the valid names but guessed none).
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write']));
const contacts = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from contacts where workspace_id = $1', [ws.workspace.id]))[0]?.n);

t.test('unknown body fields: each named with its nearest field, and the fields the endpoint takes', async (t) => {
  const res = await api.post<ErrorBody>('/v1/contacts', { first_name: 'Ada', phone: '+14155550100', emial: 'a@example.com', lastname: 'L', nickname: 'x' });
  t.equal(res.status, 400);
  t.equal(res.body.error.param, 'emial');
  t.equal(
    res.body.error.message,
    'Unknown fields: emial (did you mean email?), lastname (did you mean last_name?), nickname; it takes first_name, last_name, email, phone, status, custom_fields, owner_id.',
  );
  const one = await api.post<ErrorBody>('/v1/deals', { name: 'Big', amout: 5 });
  t.match(one.body.error.message, /^Unknown field: amout \(did you mean amount\?\); it takes name, /);
  t.equal(await contacts(), 0, 'nothing was created');
});

t.test('unknown query parameters: each named with its nearest parameter', async (t) => {
  const res = await api.get<ErrorBody>('/v1/contacts?limt=5&sortt=newest_first&statis=active&search=ada');
  t.equal(res.status, 400);
  t.equal(res.body.error.param, 'limt');
  t.equal(
    res.body.error.message,
    'Unknown query parameters: limt (did you mean limit?), sortt (did you mean sort?), statis (did you mean status?), search (did you mean q?); it takes limit, cursor, sort, created_after, created_before, created_within, status, email, phone, q.',
  );
});

t.test('the fields a record shows but no write takes are named as read-only', async (t) => {
  const ada = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Ada', phone: '+14155550103' })).body;
  const res = await api.send<ErrorBody>('PATCH', `/v1/contacts/${ada.id}`, {
    body: { object: 'contact', id: ada.id, first_name: 'Ada', created_at: '2026-01-01T00:00:00.000Z' },
  });
  t.equal(res.status, 400);
  t.equal(
    res.body.error.message,
    'Unknown fields: object (read-only: the service sets it), id (read-only: the service sets it), created_at (read-only: the service sets it); it takes first_name, last_name, email, phone, status, custom_fields, owner_id.',
  );
});
