import { Ajv2020 } from 'ajv/dist/2020.js';
import t from 'tap';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { authorizeWithForms, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { client as restClient } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Tools a small model cannot misuse, through the MCP SDK's own client: strict arguments
 * with the valid ones named, errors that say what to do next, missing scopes with their
 * remedy, portable schemas, idempotency keys, and the features beside tools.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Strict Inc', workspace: 'Strict', email: 'boss@strict.test', defaultCountry: 'US' });
const W = ws.workspace.id;

const connect = (server: 'crm' | 'studio', bearer: string) => connectMcp(t, stack.baseUrl, server, bearer);
const call = callTool;
const ok = okResult;

const admin = restClient(stack.baseUrl, await stack.token(W, ['contacts:write', 'deals:write', 'schema:write']));
await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] });
const ada = (await admin.post<{ id: string }>('/v1/contacts', { first_name: 'Ada', last_name: 'Lovelace', phone: '+1 415 555 0101', email: 'ada@strict.test' })).body;
await admin.post('/v1/contacts', { first_name: 'Grace', last_name: 'Hopper', phone: '+1 415 555 0102' });
const writer = await connect('crm', await stack.token(W, ['contacts:write', 'deals:write', 'schema:read', 'events:read']));
const reader = await connect('crm', await stack.token(W, ['contacts:read', 'deals:read']));

t.test('the three silent cases are errors that name the valid parameters and the nearest one', async (t) => {
  const byName = await call(reader, 'find_contacts', { name: 'Nobody' });
  t.equal(byName.isError, true);
  t.match(byName.structuredContent, { code: 'validation_failed', param: 'name', hint: /only the valid parameters/ });
  t.match(byName.structuredContent?.message, /Unknown parameter `name`: did you mean `query`\? Valid parameters: .*created_after.*query.*limit.*cursor/);

  const since = await call(reader, 'count_contacts', { since: '2026-01-01T00:00:00Z' });
  t.equal(since.isError, true);
  t.match(since.structuredContent?.message, /did you mean `created_after`\?/);

  const note = await call(writer, 'update_contact', { id: ada.id, note: 'Met at the conference' });
  t.equal(note.isError, true, 'update_contact with a note is refused, not reported as done');
  t.match(note.structuredContent?.message, /Unknown parameter `note`.*use add_note/);
  const after = (await admin.get<{ updated_at: string; first_name: string }>(`/v1/contacts/${ada.id}`)).body;
  t.equal(after.first_name, 'Ada', 'nothing changed');

  const typo = await call(reader, 'find_contacts', { limt: 5 });
  t.match(typo.structuredContent?.message, /did you mean `limit`\?/);
  for (const [guess, meant] of [['created_after', 'since'], ['created_within', 'within'], ['deal_id', 'object_id'], ['contact_id', 'object_id']] as const) {
    const changes = await call(writer, 'recent_changes', { [guess]: 'x' });
    t.match(changes.structuredContent?.message, new RegExp(`did you mean \`${meant}\`\\?`), `recent_changes: ${guess} is ${meant}`);
  }
  for (const [guess, meant] of [['title', 'name'], ['value', 'amount'], ['close_date', 'closed_at']] as const) {
    const deal = await call(writer, 'create_deal', { [guess]: 'x' });
    t.match(deal.structuredContent?.message, new RegExp(`did you mean \`${meant}\`\\?`), `create_deal: ${guess} is ${meant}`);
  }
  const wrongCase = await call(writer, 'create_contact', { first_name: 'Case', phone: '+1 415 555 0177', custom_fields: { Tier: 'gold' } });
  t.match(wrongCase.structuredContent, { code: 'validation_failed', param: 'custom_fields.Tier', message: /Did you mean "tier"\?.*Valid keys: tier/ });
  const none = await call(reader, 'whoami', { verbose: true });
  t.match(none.structuredContent?.message, /This tool takes no parameters/);
});

t.test('numbers written as numeric strings are read where that is unambiguous; a wrong value names its parameter', async (t) => {
  const page = ok(t, await call(reader, 'find_contacts', { limit: '1' })) as unknown as { contacts: unknown[]; has_more: boolean };
  t.equal(page.contacts.length, 1);
  t.equal(page.has_more, true);
  const bad = await call(reader, 'find_contacts', { limit: 'many' });
  t.match(bad.structuredContent, { code: 'validation_failed', param: 'limit', hint: /Correct `limit`/ });
  const missing = await call(reader, 'get_contact', { id: 'con_doesnotexist' });
  t.match(missing.structuredContent, { code: 'not_found', hint: /find_contacts, find_deals and describe_schema list the ids/ });
  t.match(missing.content?.[0]?.text, /^not_found: .*\nHint: /);
});

t.test('a blank optional argument of a reading tool reads as not given; a writing tool keeps it and says what is wrong', async (t) => {
  const all = ok(t, await call(reader, 'find_contacts', {})) as unknown as { contacts: { id: string }[] };
  const blanks = ok(t, await call(reader, 'find_contacts', { query: '', cursor: '', created_after: ' ' })) as unknown as { contacts: { id: string }[] };
  t.same(blanks.contacts.map((c) => c.id), all.contacts.map((c) => c.id), 'the same page as without them');
  const blankEmail = await call(writer, 'update_contact', { id: ada.id, email: '' });
  t.ok(blankEmail.isError, 'a blank e-mail on a write is not dropped silently');
  t.match(blankEmail.structuredContent, { code: 'validation_failed', param: 'email' });
});

t.test('a blank id is refused as missing, as on Studio, not looked up as "No such contact: ."', async (t) => {
  for (const [tool, args, prefix] of [
    ['get_contact', { id: '' }, 'con_'],
    ['get_deal', { id: ' ' }, 'deal_'],
    ['update_contact', { id: '', first_name: 'Nobody' }, 'con_'],
    ['update_deal', { id: '\n', name: 'Nothing' }, 'deal_'],
  ] as const) {
    const blank = await call(writer, tool, args);
    t.match(blank.structuredContent, { code: 'validation_failed', param: 'id', message: new RegExp(`id: is required: an id such as ${prefix}…`) }, tool);
  }
  t.equal((await admin.get<{ first_name: string }>(`/v1/contacts/${ada.id}`)).body.first_name, 'Ada', 'nothing changed');
});

t.test('a period where a date goes names the argument that takes it; a time without an offset says to add one', async (t) => {
  const contacts = await call(reader, 'find_contacts', { created_after: 'last_week' });
  t.match(contacts.structuredContent, { code: 'validation_failed', param: 'created_after', message: /"last_week" is a period, not a date: give it as created_within instead/ });
  const changes = await call(writer, 'recent_changes', { since: 'Yesterday' });
  t.match(changes.structuredContent, { code: 'validation_failed', param: 'since', message: /"Yesterday" is a period, not a date: give it as within instead/ });
  const followed = ok(t, await call(writer, 'recent_changes', { within: 'yesterday' }));
  t.ok(Array.isArray(followed.changes), 'the advice followed is answered');
  const local = await call(reader, 'count_contacts', { created_before: '2026-11-27T09:00:00' });
  t.match(local.structuredContent, { code: 'validation_failed', param: 'created_before', message: /has no offset.*add Z for UTC or its offset.*or give the day alone/ });
});

t.test('a null where a change tool cannot clear the field says to leave it out, not only that null is wrong', async (t) => {
  // A small model fills every field it sees: first_name null beside the last name it meant to set.
  const contact = ok(t, await call(writer, 'create_contact', { first_name: 'Filled', last_name: 'Nulls', phone: '+1 415 555 0166' }));
  const filled = await call(writer, 'update_contact', { id: contact.id, last_name: 'Set', first_name: null });
  t.match(filled.structuredContent, { code: 'validation_failed', param: 'first_name', hint: /^`first_name` cannot be cleared: leave it out to keep its current value, or give a new one\./ });
  const status = await call(writer, 'update_contact', { id: contact.id, status: null });
  t.match(status.structuredContent, { code: 'validation_failed', param: 'status', hint: /^`status` cannot be cleared: leave it out.*status: active or archived/ });
  const wrong = await call(writer, 'update_contact', { id: contact.id, status: 'gone' });
  t.match(wrong.structuredContent, { hint: /^Correct `status`/ }, 'a value that is not null keeps the usual hint');
  const cleared = ok(t, await call(writer, 'update_contact', { id: contact.id, last_name: null }));
  t.equal(cleared.last_name, null, 'a field that can be cleared still is');
});

t.test('an e-mail filter without an @ is refused pointing to query, not answered with no contacts', async (t) => {
  for (const tool of ['find_contacts', 'count_contacts']) {
    for (const email of ['Ada Lovelace', 'ada']) {
      const refused = await call(reader, tool, { email });
      t.match(refused.structuredContent, { code: 'validation_failed', param: 'email', message: /exact e-mail address, and this has no @.*give them as query instead/ }, `${tool} ${email}`);
    }
  }
  const byWords = ok(t, await call(reader, 'find_contacts', { query: 'ada' })) as unknown as { contacts: { id: string }[] };
  t.same(byWords.contacts.map((c) => c.id), [ada.id], 'the advice followed finds her');
  const exact = ok(t, await call(reader, 'find_contacts', { email: ' ADA@strict.test' })) as unknown as { contacts: { id: string }[] };
  t.same(exact.contacts.map((c) => c.id), [ada.id], 'an address still finds her');
});

t.test('a custom field value written as text is refused saying exactly what to write; an option in another case is that option', async (t) => {
  await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'seats', label: 'Seats', type: 'number' });
  await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' });
  for (const [custom, message] of [
    [{ seats: '5' }, /custom_fields\.seats: must be a number, not text: write 5 without quotes/],
    [{ vip: 'True' }, /custom_fields\.vip: must be true or false, not text: write true without quotes/],
    [{ tier: 'bronze' }, /custom_fields\.tier: must be one of: gold, silver\.$/],
  ] as const) {
    const refused = await call(writer, 'update_contact', { id: ada.id, custom_fields: custom });
    t.match(refused.structuredContent, { code: 'validation_failed', message }, JSON.stringify(custom));
  }
  t.match((await call(writer, 'update_contact', { id: ada.id, custom_fields: { seats: 'many' } })).structuredContent?.message, /must be a number such as 1500 or -12\.5 \(digits, a dot before decimals, no thousands separators or units\)\.$/, 'other text: the form a number takes');
  const written = ok(t, await call(writer, 'update_contact', { id: ada.id, custom_fields: { seats: 5, vip: true, tier: ' Gold' } }));
  t.match(written.custom_fields, { seats: 5, vip: true, tier: 'gold' }, 'the advice followed is stored; an option as the field defines it');
});

t.test('a custom field value of the wrong kind says how to write it; an archived field says to leave it out', async (t) => {
  // Each used to end at "must be text", "must be a number" or "cannot be written", and a model retried the same value.
  await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'motto', label: 'Motto', type: 'text' });
  await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'revenue', label: 'Revenue', type: 'number' });
  const old = (await admin.post<{ id: string }>('/v1/custom-fields', { object_type: 'contact', key: 'legacy', label: 'Legacy', type: 'text' })).body;
  await admin.send('DELETE', `/v1/custom-fields/${old.id}`);
  for (const [custom, message] of [
    [{ motto: 42 }, /custom_fields\.motto: must be text, not a number: write "42" in quotes\.$/],
    [{ motto: true }, /custom_fields\.motto: must be text, not true or false: write "true" in quotes\.$/],
    [{ revenue: '1,500' }, /custom_fields\.revenue: must be a number such as 1500 or -12\.5 \(digits, a dot before decimals, no thousands separators or units\)\.$/],
    [{ revenue: '$20' }, /custom_fields\.revenue: must be a number such as 1500/],
    [{ legacy: 'x' }, /custom_fields\.legacy: the field "legacy" is archived and cannot be written: leave it out, or have the field restored first \(archived: false, with PATCH \/v1\/custom-fields\/\{id\} or Studio's update_custom_field\)\.$/],
  ] as const) {
    const refused = await call(writer, 'update_contact', { id: ada.id, custom_fields: custom });
    t.match(refused.structuredContent, { code: 'validation_failed', param: `custom_fields.${Object.keys(custom)[0]}`, message }, JSON.stringify(custom));
  }
  const written = ok(t, await call(writer, 'update_contact', { id: ada.id, custom_fields: { motto: '42', revenue: 1500 } }));
  t.match(written.custom_fields, { motto: '42', revenue: 1500 }, 'the advice followed is stored');
});

t.test('a phone already taken names the existing contact and what to do', async (t) => {
  const taken = await call(writer, 'create_contact', { first_name: 'Ada again', phone: '(415) 555-0101' });
  t.match(taken.structuredContent, { code: 'phone_taken', param: 'phone', existing_id: ada.id, hint: new RegExp(`get_contact id ${ada.id}`) });
});

t.test('a read-only connection calling a write tool gets the scope and the remedy; whoami says it cannot write', async (t) => {
  t.notOk((await reader.listTools()).tools.some((x) => x.name === 'create_contact'), 'write tools stay hidden');
  const denied = await call(reader, 'create_contact', { first_name: 'X', phone: '+14155550199' });
  t.equal(denied.isError, true);
  t.match(denied.structuredContent, { code: 'missing_scope', required_scope: 'contacts:write', message: /API token that holds contacts:write/ });
  const who = ok(t, await call(reader, 'whoami'));
  t.match(who, { can_write: false, missing_write_scopes: ['contacts:write', 'deals:write'] });
  t.ok(Math.abs(Date.parse(String(who.now)) - Date.now()) < 60_000, 'whoami gives the current time');
  t.match(ok(t, await call(writer, 'whoami')), { can_write: true, missing_write_scopes: [] });

  // Over OAuth, for a user whose permissions do not allow the scope (so no step-up challenge,
  // mcp-scope-step-up.test.ts): consent would never offer it, so the remedy is an administrator.
  const member = await stack.addMember(W, 'reader@strict.test', ['contacts.write', 'deals.read'], 'all');
  t.ok(member);
  const redirect = 'http://127.0.0.1:9/cb';
  const clientId = await registerClient(stack.baseUrl, redirect);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ baseUrl: stack.baseUrl, clientId, redirectUri: redirect, server: 'crm', email: 'reader@strict.test', password: TEST_PASSWORD, challenge });
  const tokens = await tokenRequest(stack.baseUrl, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: redirect });
  const agent = await connect('crm', String(tokens.body.access_token));
  const refused = await call(agent, 'create_deal', { name: 'Nope' });
  t.match(refused.structuredContent, { code: 'missing_scope', required_scope: 'deals:write', message: /role in this workspace does not allow deals:write.*administrator/, hint: /administrator/ });
  t.notMatch(refused.structuredContent?.hint, /Allow changes/, 'not the consent page, which offers this member contacts:write only');
  t.equal((await admin.get<{ data: unknown[] }>('/v1/deals')).body.data.length, 0, 'nothing created');
});

t.test('tool schemas: closed inputs, nullable as anyOf of single types, valid JSON Schema 2020-12', async (t) => {
  const ajv = new Ajv2020({ strict: true, strictRequired: false, validateFormats: false, allowUnionTypes: false });
  const typeLists: string[] = [];
  const walk = (node: unknown, where: string) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (typeof node !== 'object' || node === null) return;
    const o = node as Record<string, unknown>;
    if (Array.isArray(o.type)) typeLists.push(where);
    if (o.type === 'object' && o.properties && where.includes('input')) t.equal(o.additionalProperties, false, `${where}: closed`);
    for (const [k, v] of Object.entries(o)) if (k !== 'enum' && k !== 'const') walk(v, `${where}/${k}`);
  };
  for (const server of ['crm', 'studio'] as const) {
    const client = server === 'crm' ? writer : await connect('studio', await stack.token(W, ['studio:write']));
    for (const tool of (await client.listTools()).tools) {
      for (const [io, schema] of [['input', tool.inputSchema], ['output', tool.outputSchema]] as const) {
        t.equal(schema?.$schema, 'https://json-schema.org/draft/2020-12/schema', `${tool.name} ${io}: the dialect said`);
        t.doesNotThrow(() => ajv.compile(schema as object), `${server}/${tool.name} ${io}: compiles as 2020-12 in strict mode`);
        walk(schema, `${tool.name}/${io}`);
      }
    }
  }
  t.same(typeLists, [], 'no type lists: nullable is anyOf');
  const find = (await writer.listTools()).tools.find((x) => x.name === 'create_contact');
  t.match((find?.inputSchema.properties as Record<string, unknown>).last_name, { anyOf: [{ type: 'string' }, { type: 'null' }] });
});

t.test('create tools take an idempotency_key: the same call again answers as before and creates one', async (t) => {
  const args = { first_name: 'Keyed', phone: '+1 415 555 0177', idempotency_key: 'agent-retry-1' };
  const first = ok(t, await call(writer, 'create_contact', args));
  const again = ok(t, await call(writer, 'create_contact', args));
  t.equal(again.id, first.id, 'replayed');
  const rows = await stack.db.query<{ n: number }>('select count(*)::int as n from contacts where workspace_id = $1 and phone = $2', [W, '+14155550177']);
  t.equal(rows[0]?.n, 1, 'one contact');
  const reused = await call(writer, 'create_contact', { ...args, first_name: 'Other' });
  t.match(reused.structuredContent, { code: 'idempotency_key_reused', hint: /new key/ });
  // The same request with its phone written otherwise: a retry, which a new key would turn into a second contact.
  const respelled = await call(writer, 'create_contact', { ...args, phone: '+14155550177' });
  t.match(respelled.structuredContent, {
    code: 'idempotency_key_reused',
    hint: /If this call retries it, do not send it with a new key, which would create a second record: find_contacts, find_deals or list_notes find what it made\. Use a new key only for a new request\./,
  });
  // An agent sends idempotency_key, not the REST header: the message names neither wrongly, and says what a different request is.
  t.notMatch(reused.structuredContent?.message, /Idempotency-Key/);
  t.match(reused.structuredContent?.message, /another operation, other arguments or another caller/);
  const bad = await call(writer, 'create_contact', { ...args, idempotency_key: 'has space' });
  t.match(bad.structuredContent, { code: 'validation_failed', param: 'idempotency_key' });
  const updateSchema = (await writer.listTools()).tools.find((x) => x.name === 'update_contact')?.inputSchema.properties ?? {};
  t.notOk('idempotency_key' in updateSchema, 'updates are idempotent by nature and take no key');
});

t.test('resources: the schema, each pipeline, a contact and a deal by URI template', async (t) => {
  const { resources } = await reader.listResources();
  t.ok(resources.some((r) => r.uri === 'crm://schema'), 'the schema');
  const pipeline = resources.find((r) => r.uri.startsWith('crm://pipelines/'));
  t.ok(pipeline, 'each pipeline');
  const { resourceTemplates } = await reader.listResourceTemplates();
  t.same(resourceTemplates.map((r) => r.uriTemplate).sort(), ['crm://contacts/{id}', 'crm://custom-fields/{object_type}/{key}', 'crm://deals/{id}', 'crm://pipelines/{id}']);
  const schema = JSON.parse(((await reader.readResource({ uri: 'crm://schema' })).contents[0] as { text: string }).text) as { custom_fields: { contact: { key: string }[] } };
  t.equal(schema.custom_fields.contact[0]?.key, 'tier');
  const stages = JSON.parse(((await reader.readResource({ uri: pipeline!.uri })).contents[0] as { text: string }).text) as { stages: unknown[] };
  t.ok(stages.stages.length > 0);
  const contact = JSON.parse(((await reader.readResource({ uri: `crm://contacts/${ada.id}` })).contents[0] as { text: string }).text) as { last_name: string };
  t.equal(contact.last_name, 'Lovelace');
  // A deal by URI as get_deal gives it: with its stage's, its pipeline's and its contact's names, not their ids alone.
  const created = ok(t, await call(writer, 'create_deal', { name: 'By URI', stage: 'Negotiation', contact_id: ada.id })) as { id: string };
  const deal = JSON.parse(((await reader.readResource({ uri: `crm://deals/${created.id}` })).contents[0] as { text: string }).text) as Record<string, unknown>;
  t.match(deal, { id: created.id, stage_name: 'Negotiation', pipeline_name: String, contact: { id: ada.id, name: 'Ada Lovelace' } });
  await t.rejects(reader.readResource({ uri: 'crm://contacts/con_nope' }), { code: -32002, message: /No such contact/ });
  await t.rejects(reader.readResource({ uri: 'crm://elsewhere' }), { code: -32002, message: /Resource not found/ });
  // A malformed %-escape threw "URI malformed" as an internal error; a pipeline not there read "No such No pipeline ….".
  await t.rejects(reader.readResource({ uri: 'crm://contacts/%E0%A4%A' }), { code: -32002, message: /Resource not found: crm:\/\/contacts\/%E0%A4%A\./ });
  await t.rejects(reader.readResource({ uri: 'crm://pipelines/pipe_nope' }), { code: -32002, message: /No such pipeline: pipe_nope\.$/ });
  await t.rejects(reader.readResource({ uri: 'crm://custom-fields/deal/nope' }), { code: -32002, message: /No such deal custom field: nope\.$/ });
  // Nothing is paged, so a cursor is not ours: it was ignored and the first page given again.
  await t.rejects(reader.listResources({ cursor: 'page2' }), { code: -32602, message: /Invalid cursor/ });
  await t.rejects(reader.listResourceTemplates({ cursor: 'page2' }), { code: -32602, message: /Invalid cursor/ });
  await t.rejects(reader.listTools({ cursor: 'page2' }), { code: -32602, message: /Invalid cursor/ });
  await t.rejects(reader.listPrompts({ cursor: 'page2' }), { code: -32602, message: /Invalid cursor/ });
  const dealsOnly = await connect('crm', await stack.token(W, ['deals:read']));
  await t.rejects(dealsOnly.readResource({ uri: `crm://contacts/${ada.id}` }), { message: /needs one of the scopes contacts:read/ });
});

t.test('prompts and completions from the workspace; logging accepted', async (t) => {
  const { prompts } = await writer.listPrompts();
  t.same(prompts.map((p) => p.name).sort(), ['pipeline_review', 'prepare_for_call', 'set_custom_field']);
  const review = await writer.getPrompt({ name: 'pipeline_review', arguments: { from: '2026-01-01', to: '2026-01-31' } });
  t.match(review.messages[0]?.content, { type: 'text', text: /created from 2026-01-01 to 2026-01-31/ });
  await t.rejects(writer.getPrompt({ name: 'pipeline_review', arguments: { from: 'last monday' } }), { message: /YYYY-MM-DD/ });
  await t.rejects(writer.getPrompt({ name: 'pipeline_review', arguments: { from: '2026-01-01', since: 'x' } }), { message: /Unknown argument since/ });
  // Without a pipeline, the steps name the default one: "count_deals with pipeline" gave a model no value to send, and none counts every pipeline.
  const byDefault = await writer.getPrompt({ name: 'pipeline_review', arguments: { from: '2026-01-01' } });
  t.match(byDefault.messages[0]?.content, { type: 'text', text: /count_deals with pipeline "Sales"/ });
  // A range that ends before it starts holds no deal: said at once, not found out after three empty calls.
  await t.rejects(writer.getPrompt({ name: 'pipeline_review', arguments: { from: '2026-02-01', to: '2026-01-31' } }), { code: -32602, message: /to \(2026-01-31\) must not be before from/ });
  // A prompt that needs a scope the connection lacks says so, as a resource does, rather than that there is no such prompt.
  await t.rejects((await connect('crm', await stack.token(W, ['contacts:read']))).getPrompt({ name: 'pipeline_review', arguments: { from: '2026-01-01' } }), {
    code: -32602,
    message: /pipeline_review needs the scope deals:read/,
  });

  const pipelines = await writer.complete({ ref: { type: 'ref/prompt', name: 'pipeline_review' }, argument: { name: 'pipeline', value: '' } });
  t.ok(pipelines.completion.values.length > 0, `pipeline names: ${pipelines.completion.values.join(', ')}`);
  const stage = await writer.complete({ ref: { type: 'ref/prompt', name: 'pipeline_review' }, argument: { name: 'stage', value: 'neg' } });
  t.same(stage.completion.values, ['Negotiation']);
  const field = await writer.complete({ ref: { type: 'ref/prompt', name: 'set_custom_field' }, argument: { name: 'field', value: 'ti' } });
  t.same(field.completion.values, ['tier']);
  const option = await writer.complete({ ref: { type: 'ref/prompt', name: 'set_custom_field' }, argument: { name: 'value', value: 'g' }, context: { arguments: { field: 'tier' } } });
  t.same(option.completion.values, ['gold']);
  const person = await writer.complete({ ref: { type: 'ref/prompt', name: 'prepare_for_call' }, argument: { name: 'contact', value: 'love' } });
  t.same(person.completion.values, ['Ada Lovelace']);
  const key = await writer.complete({ ref: { type: 'ref/resource', uri: 'crm://custom-fields/{object_type}/{key}' }, argument: { name: 'key', value: '' }, context: { arguments: { object_type: 'deal' } } });
  t.same(key.completion.values, [], 'deal fields only: none');
  // The contact search refuses a NUL character: that was answered -32603 internal error.
  await t.rejects(writer.complete({ ref: { type: 'ref/prompt', name: 'prepare_for_call' }, argument: { name: 'contact', value: 'a\u0000b' } }), { code: -32602, message: /NUL/ });
  t.same(await writer.setLoggingLevel('warning'), {});
});

t.test('a not_found hint fits its server and its argument', async (t) => {
  const studio = await connect('studio', await stack.token(W, ['studio:read']));
  const pipeline = await call(studio, 'get_pipeline', { id: 'pipe_doesnotexist' });
  t.match(pipeline.structuredContent, { code: 'not_found', hint: /list_pipelines/ });
  t.notMatch(pipeline.structuredContent?.hint, /find/);

  const byEmail = await call(writer, 'create_deal', { name: 'Owned by e-mail', owner_id: 'bob@strict.test' });
  t.match(byEmail.structuredContent, { code: 'not_found', param: 'owner_id', hint: /usr_.*not an e-mail.*whoami's authorized_by\.id/ });
  const described = (await writer.listTools()).tools.find((x) => x.name === 'create_deal')?.inputSchema.properties as Record<string, { description?: string; anyOf?: { description?: string }[] }>;
  t.match(JSON.stringify(described.owner_id), /usr_.*not an e-mail/, 'owner_id says what it takes');
  t.match(JSON.stringify(described.contact_id), /con_/);
  t.match(JSON.stringify(described.pipeline_id), /pipe_.*not a name/);

  // A deal's id where a contact's goes (and back): the hint says where it goes, not to check the id.
  const deal = ok(t, await call(writer, 'create_deal', { name: 'Kind of id' })) as { id: string };
  const noteOnDeal = await call(writer, 'add_note', { contact_id: deal.id, body: 'Called back' });
  t.match(noteOnDeal.structuredContent, { code: 'not_found', param: 'contact_id', hint: new RegExp(`${deal.id} is a deal id: pass it as deal_id`) });
  const contactAsDeal = await call(reader, 'get_deal', { id: ada.id });
  t.match(contactAsDeal.structuredContent, { code: 'not_found', param: 'id', hint: new RegExp(`${ada.id} is a contact id: use get_contact`) });
  const dealOfDeal = await call(writer, 'create_deal', { name: 'Wrong contact', contact_id: deal.id });
  t.match(dealOfDeal.structuredContent, { code: 'not_found', param: 'contact_id', hint: new RegExp(`${deal.id} is a deal id, not a contact's`) });
});

t.test('a name or key where an id goes says it is not an id, and which argument takes the name or where the ids are', async (t) => {
  const stageName = await call(writer, 'create_deal', { name: 'Named stage', stage_id: 'Won' });
  t.match(stageName.structuredContent, { code: 'not_found', param: 'stage_id', hint: '"Won" is not an id: pass a name as stage instead of stage_id.' });
  const followed = ok(t, await call(writer, 'create_deal', { name: 'Named stage', stage: 'Won' }));
  t.equal(followed.stage_name, 'Won', 'the advice followed places the deal');
  const pipelineName = await call(writer, 'update_deal', { id: followed.id, pipeline_id: 'Sales' });
  t.match(pipelineName.structuredContent, { code: 'not_found', param: 'pipeline_id', hint: /^"Sales" is the name of the pipeline pipe_\w+, not an id \(pipe_…\): call again with pipeline_id "pipe_\w+"\.$/ });
  const contactName = await call(reader, 'get_contact', { id: 'Ada Lovelace' });
  t.match(contactName.structuredContent, { code: 'not_found', hint: /^"Ada Lovelace" is not a contact id: id takes an id \(con_…\).*find_contacts/ });
  // The call that gives the id, for the kind named: a pipeline's name used to be sent to find_contacts and find_deals too.
  t.match(contactName.structuredContent?.hint, 'find_contacts {"query": "Ada Lovelace"} gives the id of the contact of that name', 'the exact call for the contact');
  const found = ok(t, await call(reader, 'find_contacts', { query: 'Ada Lovelace' })) as unknown as { contacts: { id: string }[] };
  t.same(found.contacts.map((c) => c.id), [ada.id], 'which, followed, finds her');
  const dealName = await call(writer, 'add_note', { deal_id: 'Named stage', body: 'Call back' });
  t.match(dealName.structuredContent, { code: 'not_found', param: 'deal_id', hint: /find_deals \{"query": "Named stage"\}/ });
  t.notMatch(pipelineName.structuredContent?.hint, /find_contacts|find_deals/, 'a pipeline is not looked for among contacts or deals');

  const studio = await connect('studio', await stack.token(W, ['studio:write']));
  const sales = ((await call(studio, 'list_pipelines')).structuredContent as { pipelines: { id: string; name: string }[] }).pipelines[0]!;
  const stageOnStudio = await call(studio, 'update_stage', { pipeline_id: sales.id, stage_id: 'Qualified', name: 'Vetted' });
  t.match(stageOnStudio.structuredContent, { code: 'not_found', param: 'stage_id', hint: new RegExp(`^"Qualified" is the name of the stage stg_\\w+ \\(pipeline "${sales.name}", ${sales.id}\\), not an id \\(stg_…\\): call again with stage_id "stg_`) });
  const pipelineOnStudio = await call(studio, 'get_pipeline', { id: sales.name });
  t.match(pipelineOnStudio.structuredContent, { code: 'not_found', hint: `"${sales.name}" is the name of the pipeline ${sales.id}, not an id (pipe_…): call again with id "${sales.id}".` });
  const fieldKey = await call(studio, 'update_custom_field', { id: 'tier', label: 'Level' });
  t.match(fieldKey.structuredContent, { code: 'not_found', param: 'id', hint: /^"tier" is not a custom field id: id takes an id \(fld_…\), not a name or key; .*list_custom_fields/ });
  const unknownId = await call(studio, 'get_pipeline', { id: 'pipe_doesnotexist' });
  t.notMatch(unknownId.structuredContent?.hint, /not an id|not a pipeline id/, 'an id of the right kind that does not exist keeps its own hint');
});

t.test('find_deals names the valid stages and pipelines; an active pipeline wins over an archived namesake', async (t) => {
  const stage = await call(reader, 'find_deals', { stage: 'Negociation' });
  t.match(stage.structuredContent, { code: 'not_found', param: 'stage', message: /No such stage: Negociation\. Active stage names: .*"Negotiation"/, hint: /names in the message/ });
  const count = await call(reader, 'count_deals', { pipeline: 'Partnrs' });
  t.match(count.structuredContent, { code: 'not_found', param: 'pipeline', message: /Active pipeline names: "/ });

  const archived = async (id: string) =>
    stack.db.query(`insert into pipelines (id, workspace_id, name, is_default, archived_at, created_at, updated_at) values ($1, $2, 'Partners', false, now(), now(), now())`, [id, W]);
  await archived('pipe_ARCHIVEDPARTNERS1');
  t.notOk((await call(reader, 'find_deals', { pipeline: 'partners' })).isError, 'an archived pipeline alone is found by its name');
  await archived('pipe_ARCHIVEDPARTNERS2');
  const twoArchived = await call(reader, 'find_deals', { pipeline: 'Partners' });
  t.match(twoArchived.structuredContent, { code: 'validation_failed', param: 'pipeline', message: /several archived pipelines.*pipe_ARCHIVEDPARTNERS1, pipe_ARCHIVEDPARTNERS2/ });
  await admin.post('/v1/pipelines', { name: 'Partners', stages: ['Intro'] });
  t.notOk((await call(reader, 'count_deals', { pipeline: 'Partners' })).isError, 'the active namesake is the one meant');
});
