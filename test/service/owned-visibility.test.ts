import t from 'tap';
import type { Operation, OperationInput } from '../../shared/bus/operation.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { archiveContact, countContacts, createContact, getContact, listContacts, updateContact } from '../../shared/contracts/contacts.js';
import { createDeal, deleteDeal, getDeal, listDeals, updateDeal } from '../../shared/contracts/deals.js';
import { client } from '../helpers/http.js';
import { busAs } from '../helpers/bus-as.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * A member whose visibility is `owned` (as an OAuth connection will carry it) sees only
 * what they own, in every read, count and filter. Called straight over NATS, the way
 * the gateway calls the workers, with a user principal.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const rep = await stack.addMember(ws.workspace.id, 'rep@example.test', ['contacts.write', 'deals.write'], 'owned');
const admin = ws.user.id;

const bus = await busAs(t, stack, 'gateway');

const asUser = (id: string, visibility: 'all' | 'owned'): CallContext => ({
  workspace_id: ws.workspace.id,
  principal: { type: 'user', id, scopes: ['contacts:write', 'deals:write'] },
  visibility,
});
const repCtx = asUser(rep, 'owned');
const call = <Op extends Operation>(op: Op, input: OperationInput<Op>, context: CallContext) =>
  bus.call(op, input, { context, requestId: 'req_visibility' }).then((r) => r.result);

// Data written with a token: 3 contacts and 2 deals of the rep, 2 and 2 of the admin, 1 and 1 unowned.
const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'deals:write']));
const mk = async (first_name: string, phone: string, owner_id: string | null) =>
  (await api.post<{ id: string }>('/v1/contacts', { first_name, phone, owner_id })).body.id;
const repContacts = [await mk('Rita', '+1 415 555 0201', rep), await mk('Rob', '+1 415 555 0202', rep), await mk('Rae', '+1 415 555 0203', rep)];
const adminContacts = [await mk('Alan', '+1 415 555 0211', admin), await mk('Ana', '+1 415 555 0212', admin)];
await mk('Nobody', '+1 415 555 0221', null);
const deal = async (name: string, owner_id: string | null, contact_id?: string) =>
  (await api.post<{ id: string }>('/v1/deals', { name, owner_id, contact_id })).body.id;
const repDeals = [await deal('R1', rep, repContacts[0]), await deal('R2', rep)];
const adminDeals = [await deal('A1', admin, adminContacts[0]), await deal('A2', admin)];
await deal('N1', null);

t.test('reads, counts and filters see only owned contacts', async (t) => {
  const page = await call(listContacts, { limit: 100 }, repCtx);
  t.same(page.data.map((c) => c.id).sort(), [...repContacts].sort());
  t.equal((await call(countContacts, {}, repCtx)).count, 3);
  t.equal((await call(countContacts, { q: 'r' }, repCtx)).count, 3);
  t.equal((await call(countContacts, { q: 'a' }, repCtx)).count, 0, "a filter matching the admin's Alan and Ana counts none");
  t.equal((await call(listContacts, { limit: 100, phone: '+1 415 555 0211' }, repCtx)).data.length, 0);
  t.equal((await call(countContacts, {}, asUser(admin, 'all'))).count, 6, 'visibility all sees every contact');
  for (const op of [getContact, archiveContact]) {
    await t.rejects(call(op, { id: adminContacts[0] ?? '' }, repCtx), { code: 'not_found' }, `${op.name} of a contact not owned`);
  }
  await t.rejects(call(updateContact, { id: adminContacts[0] ?? '', first_name: 'Stolen' }, repCtx), { code: 'not_found' });
  t.equal((await call(getContact, { id: repContacts[0] ?? '' }, repCtx)).first_name, 'Rita');
});

t.test('writes: new contacts belong to the user; handing one to another member is refused', async (t) => {
  const created = await call(createContact, { first_name: 'Mine', phone: '+1 415 555 0231' }, repCtx);
  t.equal(created.owner_id, rep, 'owned by the signed-in user');
  await t.rejects(call(createContact, { first_name: 'Gift', phone: '+1 415 555 0232', owner_id: admin }, repCtx), { code: 'forbidden' });
  const taken = call(createContact, { first_name: 'Dup', phone: '+1 415 555 0211' }, repCtx);
  await t.rejects(taken, { code: 'phone_taken' });
  const error = await taken.catch((e: { details: { existing_id?: string }; message: string }) => e);
  t.equal((error as { details: { existing_id?: string } }).details.existing_id, undefined, "the conflict does not reveal a contact the user can't see");
  t.notMatch((error as { message: string }).message, adminContacts[1] ?? 'x');
});

t.test('deals: the same rule, including contact references', async (t) => {
  const page = await call(listDeals, { limit: 100 }, repCtx);
  t.same(page.data.map((d) => d.id).sort(), [...repDeals].sort());
  for (const id of adminDeals) {
    await t.rejects(call(getDeal, { id }, repCtx), { code: 'not_found' });
    await t.rejects(call(updateDeal, { id, name: 'Stolen' }, repCtx), { code: 'not_found' });
    await t.rejects(call(deleteDeal, { id }, repCtx), { code: 'not_found' });
  }
  await t.rejects(call(createDeal, { name: 'x', contact_id: adminContacts[0] }, repCtx), { code: 'not_found', details: { param: 'contact_id' } });
  await t.rejects(call(listDeals, { limit: 10, contact_id: adminContacts[0] }, repCtx), { code: 'not_found' });
  const filtered = await call(listDeals, { limit: 10, contact_id: repContacts[0] }, repCtx);
  t.same(filtered.data.map((d) => d.id), [repDeals[0]]);
  const mine = await call(createDeal, { name: 'New' }, repCtx);
  t.equal(mine.owner_id, rep);
  const rows = await stack.db.query<{ name: string }>('select name from deals where id = any($1)', [adminDeals]);
  t.same(rows.map((r) => r.name).sort(), ['A1', 'A2'], "the admin's deals are untouched");
});

t.test('an owned member cannot leave a record unowned: it would vanish from their own view', async (t) => {
  const forbidden = { code: 'forbidden', message: /only assign records to yourself/ };
  await t.rejects(call(createContact, { first_name: 'Orphan', phone: '+1 415 555 0241', owner_id: null }, repCtx), forbidden);
  await t.rejects(call(createDeal, { name: 'Orphan', owner_id: null }, repCtx), forbidden);
  await t.rejects(call(updateContact, { id: repContacts[1] ?? '', owner_id: null }, repCtx), forbidden);
  await t.rejects(call(updateDeal, { id: repDeals[1] ?? '', owner_id: null }, repCtx), forbidden);
  const owners = await stack.db.query<{ owner_id: string | null }>('select owner_id from contacts where id = $1 union all select owner_id from deals where id = $2', [repContacts[1], repDeals[1]]);
  t.same(owners.map((r) => r.owner_id), [rep, rep], 'both still theirs');
  t.equal((await stack.db.query("select 1 from contacts where workspace_id = $1 and first_name = 'Orphan' union all select 1 from deals where workspace_id = $1 and name = 'Orphan'", [ws.workspace.id])).length, 0, 'nothing created');
  t.equal((await call(updateDeal, { id: repDeals[1] ?? '', owner_id: rep }, repCtx)).owner_id, rep, 'naming themselves is fine');
  t.equal((await call(updateDeal, { id: adminDeals[1] ?? '', owner_id: null }, asUser(admin, 'all'))).owner_id, null, 'a member who sees everything may unassign');
});
