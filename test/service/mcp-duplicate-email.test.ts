import t from 'tap';
import { client } from '../helpers/http.js';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { authorizeWithForms, type FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * An agent that did not look first made a second contact of someone who exists: only the phone
 * is unique, and it typed another number. create_contact now refuses an e-mail address another
 * contact of the workspace has (as the service stores and compares them), naming that contact
 * to a caller who may see it, unless the call opts in with allow_duplicate_email. REST does not.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ org: 'Twin Mail Inc', workspace: 'Twins', email: 'boss@twinmail.test', defaultCountry: 'US' });
const W = ws.workspace.id;
const crm = await connectMcp(t, stack.baseUrl, 'crm', await stack.token(W, ['contacts:write']));
const rest = client(stack.baseUrl, await stack.token(W, ['contacts:write'], { name: 'twins rest' }));

type Row = { id: string; email: string | null };
const contactsWith = async (email: string) => (await stack.db.query<{ id: string }>('select id from contacts where workspace_id = $1 and email = $2 order by created_at', [W, email])).map((r) => r.id);

t.test('an e-mail address in use is refused, naming the contact; variants too; opting in creates it', async (t) => {
  const first = okResult(t, await callTool(crm, 'create_contact', { first_name: 'Ada', phone: '+1 415 555 7001', email: 'ada@twinmail.test' })) as Row;

  const refused = await callTool(crm, 'create_contact', { first_name: 'Ada', last_name: 'Lovelace', phone: '+1 415 555 7002', email: 'ada@twinmail.test' });
  t.equal(refused.isError, true, 'a second contact with the address is refused');
  t.match(refused.structuredContent, { code: 'conflict', param: 'email', reason: 'email_taken', existing_id: first.id, message: new RegExp(first.id), hint: /get_contact.*update_contact.*allow_duplicate_email: true/ });
  t.match(refused.content?.[0]?.text, /^conflict: /, 'the text says it too');

  // As stored: lower case, composed, the domain in Unicode; and a contact stored with a punycode domain before that.
  await stack.db.query(
    `insert into contacts (id, workspace_id, first_name, email, phone, status, custom_fields, created_at, updated_at)
     values ('con_TWINPUNY', $1, 'Jürgen', 'jurgen@xn--zwillingspst-ejb.test', '+14155557009', 'active', '{}', now(), now())`,
    [W],
  );
  const josé = okResult(t, await callTool(crm, 'create_contact', { first_name: 'José', phone: '+1 415 555 7003', email: 'jos\u00e9@twinmail.test' })) as Row;
  for (const [variant, existing] of [
    ['ADA@TwinMail.Test', first.id],
    ['  Ada@twinmail.TEST ', first.id],
    ['jose\u0301@TWINMAIL.test', josé.id],
    ['Jurgen@zwillingspöst.test', 'con_TWINPUNY'],
  ] as const) {
    const r = await callTool(crm, 'create_contact', { first_name: 'Twin', phone: '+1 415 555 7004', email: variant });
    t.match(r.structuredContent, { code: 'conflict', param: 'email', existing_id: existing }, `${JSON.stringify(variant)} is the same address`);
  }
  t.same(await contactsWith('ada@twinmail.test'), [first.id], 'nothing was created');

  // Archived, the person still exists: update_contact brings them back.
  await rest.send('DELETE', `/v1/contacts/${josé.id}`);
  t.match((await callTool(crm, 'create_contact', { first_name: 'José', phone: '+1 415 555 7005', email: 'JOSÉ@twinmail.test' })).structuredContent, { code: 'conflict', existing_id: josé.id }, 'an archived contact counts');

  const described = (await crm.listTools()).tools.find((tool) => tool.name === 'create_contact');
  t.match(described?.description, /allow_duplicate_email/, 'the description says how to opt in');
  t.match(described?.inputSchema.properties?.allow_duplicate_email, { type: 'boolean', description: /^true only when/ }, 'a described argument');

  const second = okResult(t, await callTool(crm, 'create_contact', { first_name: 'Ada', last_name: 'Other', phone: '+1 415 555 7002', email: 'Ada@twinmail.test', allow_duplicate_email: true })) as Row;
  t.equal(second.email, 'ada@twinmail.test', 'opted in: a separate contact');
  t.same(await contactsWith('ada@twinmail.test'), [first.id, second.id]);
  okResult(t, await callTool(crm, 'create_contact', { first_name: 'Nomail', phone: '+1 415 555 7006' }));
  okResult(t, await callTool(crm, 'create_contact', { first_name: 'Nomail', phone: '+1 415 555 7007', email: null }));

  // A taken phone is still phone_taken (the hard rule), and a malformed phone a validation error before the address is looked at.
  t.match((await callTool(crm, 'create_contact', { first_name: 'X', phone: '+1 415 555 7001', email: 'x@twinmail.test' })).structuredContent, { code: 'phone_taken' });
  // Both taken: the phone is said, so a taken phone cannot be used to ask whether an address exists.
  t.match((await callTool(crm, 'create_contact', { first_name: 'X', phone: '+1 415 555 7001', email: 'ada@twinmail.test' })).structuredContent, { code: 'phone_taken' }, 'phone and e-mail both taken: phone_taken');
  t.match((await callTool(crm, 'create_contact', { first_name: 'X', phone: 'nope', email: 'ada@twinmail.test' })).structuredContent, { code: 'validation_failed', param: 'phone' });
});

t.test('a retry with the same idempotency_key replays the contact it made, not a refusal', async (t) => {
  const args = { first_name: 'Grace', phone: '+1 415 555 7011', email: 'grace@twinmail.test', idempotency_key: 'twinmail-grace-1' };
  const made = okResult(t, await callTool(crm, 'create_contact', args)) as Row;
  const again = okResult(t, await callTool(crm, 'create_contact', args)) as Row;
  t.equal(again.id, made.id, 'the same contact');
  t.same(await contactsWith('grace@twinmail.test'), [made.id], 'one contact');
  const other = await callTool(crm, 'create_contact', { ...args, idempotency_key: 'twinmail-grace-2', phone: '+1 415 555 7012' });
  t.match(other.structuredContent, { code: 'conflict', param: 'email', existing_id: made.id }, 'a new key is a new request, and refused');
});

t.test('two creates of one address at once: one contact', async (t) => {
  const tries = await Promise.all(
    [7021, 7022, 7023, 7024].map((n) => callTool(crm, 'create_contact', { first_name: 'Race', phone: `+1 415 555 ${n}`, email: 'race@twinmail.test' })),
  );
  t.equal(tries.filter((r) => !r.isError).length, 1, 'one created');
  t.equal(tries.filter((r) => r.structuredContent?.code === 'conflict').length, 3, 'the others refused');
  t.equal((await contactsWith('race@twinmail.test')).length, 1);
});

t.test('an owned-visibility member is told one exists, not which', async (t) => {
  const rep = await stack.addMember(W, 'rep@twinmail.test', ['contacts.write'], 'owned');
  const bosses = okResult(t, await callTool(crm, 'create_contact', { first_name: 'Hidden', phone: '+1 415 555 7031', email: 'hidden@twinmail.test' })) as Row;
  // Changes are offered at consent once the client holds a grant: connected read-only first, then again with "Allow changes".
  const redirect = 'http://127.0.0.1:9/cb';
  const clientId = await registerClient(stack.baseUrl, redirect);
  let browser: FormBrowser | undefined;
  let bearer = '';
  for (const allowChanges of [false, true]) {
    const { verifier, challenge } = pkce();
    const signedIn = await authorizeWithForms({ baseUrl: stack.baseUrl, clientId, redirectUri: redirect, server: 'crm', email: 'rep@twinmail.test', password: TEST_PASSWORD, allowChanges, challenge, browser });
    browser = signedIn.browser;
    const tokens = await tokenRequest(stack.baseUrl, { grant_type: 'authorization_code', client_id: clientId, code: signedIn.code, code_verifier: verifier, redirect_uri: redirect });
    bearer = String(tokens.body.access_token);
  }
  const repCrm = await connectMcp(t, stack.baseUrl, 'crm', bearer);

  const refused = await callTool(repCrm, 'create_contact', { first_name: 'Hidden', phone: '+1 415 555 7032', email: 'Hidden@twinmail.test' });
  t.equal(refused.isError, true);
  t.match(refused.structuredContent, { code: 'conflict', param: 'email', hint: /may not see.*allow_duplicate_email: true/ });
  t.notOk(refused.structuredContent && 'existing_id' in refused.structuredContent, 'no existing_id');
  t.notMatch(JSON.stringify(refused), new RegExp(bosses.id), 'the contact is named nowhere');

  // Their own contact with an address is named to them, even when another's has it too.
  const own = okResult(t, await callTool(repCrm, 'create_contact', { first_name: 'Hidden', phone: '+1 415 555 7033', email: 'hidden@twinmail.test', allow_duplicate_email: true })) as Row & { owner_id: string };
  t.equal(own.owner_id, rep, 'theirs');
  t.match((await callTool(repCrm, 'create_contact', { first_name: 'Hidden', phone: '+1 415 555 7034', email: 'hidden@twinmail.test' })).structuredContent, { code: 'conflict', existing_id: own.id });
});

t.test('REST still creates a contact with an address in use', async (t) => {
  const first = await rest.post<Row>('/v1/contacts', { first_name: 'Rest', phone: '+1 415 555 7041', email: 'rest@twinmail.test' });
  const second = await rest.post<Row>('/v1/contacts', { first_name: 'Rest', phone: '+1 415 555 7042', email: 'REST@twinmail.test' });
  t.equal(first.status, 201);
  t.equal(second.status, 201, 'a second contact with the same address');
  t.same(await contactsWith('rest@twinmail.test'), [first.body.id, second.body.id]);
  const asked = await rest.post('/v1/contacts', { first_name: 'Rest', phone: '+1 415 555 7043', email: 'rest@twinmail.test', unique_email: true });
  t.equal(asked.status, 400, 'the tool’s own field is no part of the REST body');
});
