import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import t, { type Test } from 'tap';
import type { Note } from '../../shared/contracts/notes.js';
import type { ListPage } from '../helpers/api-types.js';
import { client as restClient } from '../helpers/http.js';
import { authorizeWithForms, FormBrowser, pkce, registerClient, tokenRequest } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/** add_note and list_notes on the CRM tool server, through the MCP SDK's own client: with an API token and as an OAuth agent. */
const stack = await useStack(t);
const ws = await stack.bootstrap({ email: 'boss@notes-tools.test', defaultCountry: 'US' });
const W = ws.workspace.id;

async function connect(bearer: string): Promise<Client> {
  const client = new Client({ name: 'notes-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.baseUrl}/mcp/crm`), { requestInit: { headers: { Authorization: `Bearer ${bearer}` } } }));
  t.teardown(() => client.close());
  return client;
}
type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { text?: string }[] };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) => (await client.callTool({ name, arguments: args })) as Result;
const ok = <T>(t: Test, r: Result): T => {
  t.notOk(r.isError, r.isError ? JSON.stringify(r.content) : 'ok');
  return r.structuredContent as T;
};

const tokenName = 'notes agent token';
const token = await stack.token(W, ['contacts:write', 'deals:write', 'events:read'], { name: tokenName });
const api = restClient(stack.baseUrl, token);
const contact = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Tess', phone: '+1 415 555 0500' })).body.id;
const deal = (await api.post<{ id: string }>('/v1/deals', { name: 'Tess deal' })).body.id;
const countNotes = async (body: string) =>
  Number((await stack.db.query<{ n: string }>('select count(*) as n from notes where workspace_id = $1 and body = $2', [W, body]))[0]?.n);

t.test('add_note and list_notes with an API token; an idempotency_key makes a retry safe', async (t) => {
  const crm = await connect(token);
  const note = ok<Note>(t, await call(crm, 'add_note', { contact_id: contact, body: '# Call\nTess asked for a *quote*.', idempotency_key: 'retry-1' }));
  t.match(note, { object: 'note', contact_id: contact, deal_id: null, body: '# Call\nTess asked for a *quote*.', author: { kind: 'api_token', name: tokenName } });
  const again = ok<Note>(t, await call(crm, 'add_note', { contact_id: contact, body: '# Call\nTess asked for a *quote*.', idempotency_key: 'retry-1' }));
  t.same(again, note, 'the same key and arguments: the first note');
  t.equal(await countNotes('# Call\nTess asked for a *quote*.'), 1, 'stored once');
  const reused = await call(crm, 'add_note', { contact_id: contact, body: 'Different', idempotency_key: 'retry-1' });
  t.equal(reused.isError, true);
  t.match(reused.content?.[0]?.text, /idempotency/i);
  t.equal(await countNotes('Different'), 0);
  // The header's store and fingerprint: REST with the same key replays the tool's note.
  const viaRest = await api.post<Note>('/v1/notes', { contact_id: contact, body: '# Call\nTess asked for a *quote*.' }, { 'idempotency-key': 'retry-1' });
  t.equal(viaRest.headers.get('idempotent-replayed'), 'true');
  t.equal(viaRest.body.id, note.id);

  const second = ok<Note>(t, await call(crm, 'add_note', { contact_id: contact, body: 'Follow-up sent' }));
  const listed = ok<{ notes: Note[]; has_more: boolean; next_cursor: string | null }>(t, await call(crm, 'list_notes', { contact_id: contact }));
  t.same(listed.notes.map((n) => n.id), [note.id, second.id], 'oldest first');
  t.equal(listed.has_more, false);
  const newest = ok<{ notes: Note[]; has_more: boolean; next_cursor: string | null }>(t, await call(crm, 'list_notes', { contact_id: contact, order: 'desc', limit: 1 }));
  t.same(newest.notes.map((n) => n.id), [second.id]);
  t.equal(newest.has_more, true);
  const rest = ok<{ notes: Note[] }>(t, await call(crm, 'list_notes', { contact_id: contact, order: 'desc', limit: 1, cursor: newest.next_cursor }));
  t.same(rest.notes.map((n) => n.id), [note.id]);

  const onDeal = ok<Note>(t, await call(crm, 'add_note', { deal_id: deal, body: 'Deal note' }));
  t.same(ok<{ notes: Note[] }>(t, await call(crm, 'list_notes', { deal_id: deal })).notes.map((n) => n.id), [onDeal.id]);
});

t.test('tool errors: no parent, both, an unknown record, a scope the connection lacks', async (t) => {
  const crm = await connect(token);
  const none = await call(crm, 'add_note', { body: 'Orphan' });
  t.equal(none.isError, true);
  t.match(none.content?.[0]?.text, /contact_id or deal_id/);
  t.equal((await call(crm, 'add_note', { contact_id: contact, deal_id: deal, body: 'Both' })).isError, true);
  const unknown = await call(crm, 'add_note', { contact_id: 'con_nope', body: 'Lost' });
  t.equal(unknown.isError, true);
  t.match(unknown.content?.[0]?.text, /con_nope/);
  t.equal((await call(crm, 'add_note', { contact_id: contact, body: 'x'.repeat(10_001) })).isError, true, '10,001 characters are refused');
  t.equal(await countNotes('Orphan') + (await countNotes('Both')) + (await countNotes('Lost')), 0);

  const contactsReader = await connect(await stack.token(W, ['contacts:read']));
  const names = (await contactsReader.listTools()).tools.map((x) => x.name);
  t.ok(names.includes('list_notes') && !names.includes('add_note'), 'add_note is listed only to connections that may write');
  const denied = await call(contactsReader, 'list_notes', { deal_id: deal });
  t.equal(denied.isError, true);
  t.match(denied.content?.[0]?.text, /deals:read/, "a deal's notes need deals:read");
  // Said of the notes, not of "this operation": the model called a tool its connection may use.
  t.match(denied.content?.[0]?.text, /Reading notes on a deal needs the scope deals:read/);
});

t.test('an OAuth agent writes a note as itself, for its user', async (t) => {
  const redirect = 'http://127.0.0.1:9/notes-agent';
  const clientId = await registerClient(stack.baseUrl, redirect, 'Notes agent');
  const browser = new FormBrowser();
  const login = { baseUrl: stack.baseUrl, clientId, redirectUri: redirect, server: 'crm' as const, email: ws.user.email, password: TEST_PASSWORD, browser };
  await authorizeWithForms({ ...login, challenge: pkce().challenge });
  // The first grant is read-only; authorizing again offers "Allow changes".
  const { verifier, challenge } = pkce();
  const { code } = await authorizeWithForms({ ...login, challenge, allowChanges: true });
  const tokens = await tokenRequest(stack.baseUrl, { grant_type: 'authorization_code', client_id: clientId, code, code_verifier: verifier, redirect_uri: redirect });
  const agent = await connect(String(tokens.body.access_token));

  const note = ok<Note>(t, await call(agent, 'add_note', { contact_id: contact, body: 'Written by the agent' }));
  t.match(note.author, { kind: 'oauth_agent', name: 'Notes agent', user: { id: ws.user.id, email: ws.user.email } });
  const events = (await api.get<ListPage<{ type: string; actor: Note['author'] }>>(`/v1/events?object_id=${note.id}`)).body.data;
  t.same(events.map((e) => e.type), ['note.created']);
  t.same(events[0]?.actor, note.author, 'the event names the same actor');
});
