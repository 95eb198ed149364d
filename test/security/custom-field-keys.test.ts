import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t from 'tap';
import type { ErrorBody } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Custom field keys are looked up on JavaScript objects: a field called `constructor`
 * would read every object's constructor where a record has no value (before, such a key
 * was accepted), and `__proto__` in a body must never reach an object's prototype.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['schema:write', 'contacts:write']));

t.test('reserved keys are refused over REST', async (t) => {
  for (const key of ['constructor', 'prototype', '__proto__']) {
    const res = await api.post<ErrorBody>('/v1/custom-fields', { object_type: 'contact', key, label: 'Sneaky', type: 'text' });
    t.equal(res.status, 400, `${key}: 400`);
    t.equal(res.body.error.param, 'key');
  }
  const listed = await api.get<{ data: unknown[] }>('/v1/custom-fields');
  t.same(listed.body.data, [], 'nothing was defined');
});

t.test('and by the Studio tool', async (t) => {
  const mcp = new Client({ name: 'keys-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/studio`), {
      requestInit: { headers: { Authorization: `Bearer ${await stack.token(ws.workspace.id, ['studio:write'])}` } },
    }),
  );
  t.teardown(() => mcp.close());
  const res = (await mcp.callTool({ name: 'create_custom_field', arguments: { object_type: 'deal', key: 'constructor', label: 'Sneaky', type: 'text' } })) as { isError?: boolean; content?: { text?: string }[] };
  t.equal(res.isError, true);
  t.match(res.content?.[0]?.text, /reserved/);
});

t.test('__proto__ as a key refuses the body, and records read as before', async (t) => {
  const field = await api.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'text' });
  t.equal(field.status, 201);
  const body = '{"first_name":"Proto","phone":"+1 415 555 0199","custom_fields":{"__proto__":{"tier":"gold","polluted":true}}}';
  const res = await api.send<ErrorBody>('POST', '/v1/contacts', { rawBody: body, headers: { 'content-type': 'application/json' } });
  t.equal(res.status, 400, 'before, the key was dropped without a word and the contact created');
  t.match(res.body.error, { code: 'invalid_json', message: /"__proto__"/ });
  const made = await api.post<{ id: string; custom_fields: Record<string, unknown> }>('/v1/contacts', { first_name: 'Plain', phone: '+1 415 555 0198' });
  t.equal(made.status, 201);
  t.same(made.body.custom_fields, { tier: null }, 'every field present, null where unset, nothing inherited');
});

t.test('a required field keyed `constructor` stored before the rule is still required (null-prototype maps)', async (t) => {
  // Before, the values of a new record were a plain object: `set.constructor` read
  // Object.prototype.constructor, so the required check passed with no value given.
  const own = await stack.bootstrap({ defaultCountry: 'US', email: 'legacy-key@keys.test' });
  const legacyApi = client(stack.baseUrl, await stack.token(own.workspace.id, ['contacts:write']));
  await stack.db.query(
    `insert into custom_fields (id, workspace_id, object_type, key, label, type, options, required, archived_at, created_at, updated_at)
     values ('fld_legacyconstructor', $1, 'contact', 'constructor', 'Legacy', 'text', null, true, null, now(), now())`,
    [own.workspace.id],
  );
  const res = await legacyApi.post<ErrorBody>('/v1/contacts', { first_name: 'Bypass', phone: '+1 415 555 0197' });
  t.equal(res.status, 400, 'the required value is missing');
  t.equal(res.body.error.param, 'custom_fields.constructor');
  const [row] = await stack.db.query<{ n: string }>('select count(*) n from contacts where workspace_id = $1', [own.workspace.id]);
  t.equal(Number(row?.n), 0, 'nothing was created');
  const ok = await legacyApi.post<{ custom_fields: Record<string, unknown> }>('/v1/contacts', { first_name: 'Given', phone: '+1 415 555 0196', custom_fields: { constructor: 'set' } });
  t.equal(ok.status, 201);
  t.equal(ok.body.custom_fields.constructor, 'set', 'and the key reads as any other');
});
