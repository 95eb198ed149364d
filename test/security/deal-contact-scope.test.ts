import t from 'tap';
import { grantableScopes } from '../../shared/auth/permissions.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { createDeal, getDeal, updateDeal } from '../../shared/contracts/deals.js';
import type { Deal, ErrorBody } from '../helpers/api-types.js';
import { busAs } from '../helpers/bus-as.js';
import { client } from '../helpers/http.js';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Linking a deal to a contact needs contacts:read beside deals:write, on every path (REST, the
 * CRM tool server, the console's calls): without it the answer is the same 403 whether the contact
 * exists or not, so deals:write alone cannot probe contact ids. Unlinking needs no contacts:read.
 */
const stack = await useStack(t);
const a = await stack.bootstrap({ defaultCountry: 'US' });
const W = a.workspace.id;
const admin = client(stack.baseUrl, await stack.token(W, ['contacts:write', 'deals:write']));
const contact = (await admin.post<{ id: string }>('/v1/contacts', { first_name: 'Hidden', phone: '+1 415 555 0701' })).body.id;
const dealsOnlyToken = await stack.token(W, ['deals:write']);
const dealsOnly = client(stack.baseUrl, dealsOnlyToken);
const dealCount = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from deals where workspace_id = $1', [W]))[0]?.n);

t.test('REST: a create or PATCH linking a contact without contacts:read is a 403 naming it, existing contact or not', async (t) => {
  const before = await dealCount();
  for (const contactId of [contact, 'con_doesnotexist']) {
    const created = await dealsOnly.post<ErrorBody>('/v1/deals', { name: 'Probe', contact_id: contactId });
    t.equal(created.status, 403, `create with ${contactId}`);
    t.equal(created.body.error.code, 'missing_scope');
    t.equal(created.body.error.required_scope, 'contacts:read');
    t.match(created.body.error.message, /Linking a deal to a contact needs the scope contacts:read/);
  }
  t.equal(await dealCount(), before, 'no deal was created');

  const deal = (await dealsOnly.post<Deal>('/v1/deals', { name: 'Plain' })).body;
  for (const contactId of [contact, 'con_doesnotexist']) {
    const patched = await dealsOnly.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { name: 'Renamed', contact_id: contactId } });
    t.equal(patched.status, 403, `PATCH with ${contactId}`);
    t.equal(patched.body.error.required_scope, 'contacts:read');
  }
  t.match((await dealsOnly.get<Deal>(`/v1/deals/${deal.id}`)).body, { name: 'Plain', contact_id: null }, 'the refused PATCH changed nothing');
});

t.test('REST: a deal linked by someone who may read contacts keeps its contact_id on a change, and unlinks without contacts:read', async (t) => {
  const deal = (await admin.post<Deal>('/v1/deals', { name: 'Linked', contact_id: contact })).body;
  const same = await dealsOnly.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { name: 'Linked, renamed', contact_id: contact } });
  t.equal(same.status, 200, 'its own contact_id given back links nothing new');
  t.match(same.body, { name: 'Linked, renamed', contact_id: contact });
  const unlinked = await dealsOnly.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { contact_id: null } });
  t.equal(unlinked.status, 200);
  t.equal(unlinked.body.contact_id, null);
  const linked = await admin.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { contact_id: contact } });
  t.equal(linked.body.contact_id, contact, 'with contacts:read the link is made');
});

t.test('MCP: create_deal and update_deal with a contact_id need contacts:read, named in the tool error', async (t) => {
  const crm = await connectMcp(t, stack.baseUrl, 'crm', dealsOnlyToken);
  const before = await dealCount();
  for (const contactId of [contact, 'con_doesnotexist']) {
    const refused = await callTool(crm, 'create_deal', { name: 'Tool probe', contact_id: contactId });
    t.equal(refused.isError, true, `create_deal with ${contactId}`);
    t.match(refused.structuredContent, { code: 'missing_scope', required_scope: 'contacts:read' });
  }
  t.equal(await dealCount(), before, 'no deal was created');
  const deal = okResult(t, await callTool(crm, 'create_deal', { name: 'Tool deal' })) as { id: string };
  const refused = await callTool(crm, 'update_deal', { id: deal.id, contact_id: 'con_doesnotexist' });
  t.match(refused.structuredContent, { code: 'missing_scope', required_scope: 'contacts:read' });
  t.match(okResult(t, await callTool(crm, 'update_deal', { id: deal.id, contact_id: null })), { contact_id: null }, 'unlinking is allowed');
});

t.test("the console's calls: a member with deals.write but not contacts.read links no contact", async (t) => {
  // As the console calls the deals worker: the member's user, with the scopes of their permissions.
  const bus = await busAs(t, stack, 'gateway');
  const member = await stack.addMember(W, `deals-only-${Date.now()}@example.com`, ['deals.read', 'deals.write'], 'all');
  const context: CallContext = { workspace_id: W, principal: { type: 'user', id: member, scopes: grantableScopes(['deals.read', 'deals.write']) }, visibility: 'all' };
  const options = { context, requestId: 'req_deal_contact_scope' };
  await t.rejects(bus.call(createDeal, { name: 'Console probe', contact_id: contact }, options), { code: 'missing_scope', details: { required_scope: 'contacts:read' } });
  const deal = (await bus.call(createDeal, { name: 'Console deal' }, options)).result;
  await t.rejects(bus.call(updateDeal, { id: deal.id, contact_id: contact }, options), { code: 'missing_scope', details: { required_scope: 'contacts:read' } });
  t.equal((await bus.call(getDeal, { id: deal.id }, options)).result.contact_id, null, 'nothing linked');
});

t.test('a deal list filtered by contact_id without contacts:read: an unknown contact is an empty list, as a known one with no deals is', async (t) => {
  const reader = client(stack.baseUrl, await stack.token(W, ['deals:read']));
  const dealless = (await admin.post<{ id: string }>('/v1/contacts', { first_name: 'Dealless', phone: '+1 415 555 0702' })).body.id;
  // Before, con_doesnotexist was a 404 and an existing contact without deals an empty list: deals:read alone told which ids exist.
  for (const contactId of [dealless, 'con_doesnotexist']) {
    const listed = await reader.get<{ data: unknown[] }>(`/v1/deals?contact_id=${contactId}`);
    t.equal(listed.status, 200, `GET /v1/deals?contact_id=${contactId}`);
    t.same(listed.body.data, []);
  }
  const withContacts = client(stack.baseUrl, await stack.token(W, ['deals:read', 'contacts:read']));
  t.equal((await withContacts.get('/v1/deals?contact_id=con_doesnotexist')).status, 404, 'a caller who may read contacts is still told of a typo');
});
