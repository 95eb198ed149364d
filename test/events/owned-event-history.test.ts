import t from 'tap';
import { getEvent, listEvents, type Event } from '../../shared/contracts/events.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { CrmError } from '../../shared/errors.js';
import { busAs } from '../helpers/bus-as.js';
import { client } from '../helpers/http.js';
import { callTool, connectMcp, okResult } from '../helpers/mcp-client.js';
import { signInAgent, TestAgent } from '../helpers/mcp-oauth-agent.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * An `owned` member reads the events of the contacts and deals they own now (and of notes on
 * them): when a record is reassigned, its whole history goes to the new owner and leaves the
 * old one, who may no longer read the record. A deleted deal's history stays with whoever
 * owned it when it was deleted. The rule lives in the worker, which REST, the console and
 * `recent_changes` all call; it is checked here at the worker, as each of them calls it.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const admin = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write', 'events:read'], { name: 'admin token' }));
const bus = await busAs(t, stack, 'gateway');
const emailOfB = `rep-b-${Date.now()}@example.test`;
const repA = await stack.addMember(ws.workspace.id, `rep-a-${Date.now()}@example.test`, ['contacts.write', 'deals.write'], 'owned');
const repB = await stack.addMember(ws.workspace.id, emailOfB, ['contacts.write', 'deals.write'], 'owned');
const contextOf = (member: string): CallContext => ({
  workspace_id: ws.workspace.id,
  principal: { type: 'user', id: member, scopes: ['contacts:write', 'deals:write', 'events:read'] },
  visibility: 'owned',
});
let calls = 0;
const feedOf = async (member: string, filters: { object_id?: string } = {}) =>
  (await bus.call(listEvents, { limit: 100, ...filters }, { context: contextOf(member), requestId: `req_owned_history_${calls++}` })).result.data;
/** The deal A owned when it was deleted (the first test deletes it). */
let deletedOfA = '';
const describe = (events: Event[]) => events.map((e) => `${e.type} ${e.data.object.id}`).sort();

t.test('a reassigned record takes its whole history to its new owner; a deleted deal keeps its history with its owner then', async (t) => {
  const contact = (await admin.post<{ id: string }>('/v1/contacts', { first_name: 'Moving', phone: '+1 415 555 0710', owner_id: repA })).body.id;
  t.equal((await admin.send('PATCH', `/v1/contacts/${contact}`, { body: { last_name: 'Target' } })).status, 200);
  const note = (await admin.post<{ id: string }>('/v1/notes', { contact_id: contact, body: 'Met at the fair.' })).body.id;
  const deal = (await admin.post<{ id: string }>('/v1/deals', { name: 'Moving deal', amount: 100, currency: 'USD', contact_id: contact, owner_id: repA })).body.id;
  const gone = (await admin.post<{ id: string }>('/v1/deals', { name: 'Gone deal', amount: 5, currency: 'USD', owner_id: repA })).body.id;
  const goneNote = (await admin.post<{ id: string }>('/v1/notes', { deal_id: gone, body: 'Lost it.' })).body.id;
  t.equal((await admin.send('DELETE', `/v1/deals/${gone}`)).status, 200);
  deletedOfA = gone;
  t.ok(note && deal && goneNote);

  const before = describe(await feedOf(repA));
  t.same(before, [
    `contact.created ${contact}`,
    `contact.updated ${contact}`,
    `deal.created ${deal}`,
    `deal.created ${gone}`,
    `deal.deleted ${gone}`,
    `note.created ${goneNote}`,
    `note.created ${note}`,
    `note.deleted ${goneNote}`,
  ].sort(), 'the owner sees every event of their records');
  t.same(await feedOf(repB), [], 'another owned member sees none of them');

  // Reassigned: the contact (with its note) and the live deal go to B.
  t.equal((await admin.send('PATCH', `/v1/contacts/${contact}`, { body: { owner_id: repB } })).status, 200);
  t.equal((await admin.send('PATCH', `/v1/deals/${deal}`, { body: { owner_id: repB } })).status, 200);

  const goneOfA = [`deal.created ${gone}`, `deal.deleted ${gone}`, `note.created ${goneNote}`, `note.deleted ${goneNote}`].sort();
  t.same(describe(await feedOf(repA)), goneOfA, 'A keeps only the deleted deal and its note');
  t.same(
    describe(await feedOf(repB)),
    [`contact.created ${contact}`, `contact.updated ${contact}`, `contact.updated ${contact}`, `deal.created ${deal}`, `deal.updated ${deal}`, `note.created ${note}`].sort(),
    'B sees the whole history of what B owns now, from before the reassignment too',
  );
  t.equal((await feedOf(repB, { object_id: contact })).length, 3, "a record's own history, as its page shows it");
  t.same(await feedOf(repA, { object_id: contact }), [], 'and the old owner sees none of it');

  // One event by id: the same rule.
  const created = (await admin.get<{ data: Event[] }>(`/v1/events?object_id=${contact}&type=contact.created`)).body.data[0];
  t.ok(created);
  const byId = (member: string) => bus.call(getEvent, { id: created!.id }, { context: contextOf(member), requestId: `req_owned_history_${calls++}` });
  t.equal((await byId(repB)).result.id, created!.id, 'the new owner reads the event by id');
  const refused = await byId(repA).catch((error: unknown) => error);
  t.ok(refused instanceof CrmError && refused.code === 'not_found', 'the old owner gets not_found (a 404)');

  // Reassigned to B, then deleted: its whole history, from A's time too, goes with it to B.
  t.equal((await admin.send('PATCH', `/v1/deals/${deal}`, { body: { name: 'Moving deal, lost' } })).status, 200);
  t.equal((await admin.send('DELETE', `/v1/deals/${deal}`)).status, 200);
  t.same(
    describe(await feedOf(repB, { object_id: deal })),
    [`deal.created ${deal}`, `deal.deleted ${deal}`, `deal.updated ${deal}`, `deal.updated ${deal}`].sort(),
    "the owner at deletion keeps the deal's whole history",
  );
  t.same(describe(await feedOf(repA)), goneOfA, 'and A still sees none of it');
});

t.test("an owned member's own agent, signed in over OAuth, sees through recent_changes what the member owns now", async (t) => {
  // After the test above: B owns the moved contact and the deal deleted after it moved, A only the deal deleted while A's.
  const agent = new TestAgent('Owned history agent');
  await signInAgent(agent, { baseUrl: stack.baseUrl, server: 'crm', email: emailOfB, password: TEST_PASSWORD, allowChanges: false });
  const mcp = await connectMcp(t, stack.baseUrl, 'crm', agent.tokens()?.access_token ?? '');

  const changes = (okResult(t, await callTool(mcp, 'recent_changes', { limit: 100 })).changes ?? []) as { object_id: string; type: string }[];
  const viaWorker = await feedOf(repB);
  t.ok(changes.length > 0, 'the member sees changes');
  t.same(changes.map((c) => `${c.type} ${c.object_id}`).sort(), describe(viaWorker), 'exactly the events of what B owns now, as the worker lists them for B');
  t.ok(deletedOfA);
  t.notOk(changes.some((c) => c.object_id === deletedOfA), "nothing of A's deleted deal");
});
