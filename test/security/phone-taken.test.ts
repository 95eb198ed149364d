import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { createContact, updateContact } from '../../shared/contracts/contacts.js';
import { CrmError } from '../../shared/errors.js';
import { busAs } from '../helpers/bus-as.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * A member whose visibility is `owned` probes phone numbers by creating contacts, over NATS
 * as the gateway calls the contacts worker for an OAuth agent or the console.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US', email: 'admin@phone-taken.test' });
const rep = await stack.addMember(ws.workspace.id, 'rep@phone-taken.test', ['contacts.write'], 'owned');
const bus = await busAs(t, stack, 'gateway', { timeoutMs: 10_000 });
const as = (id: string, visibility: 'all' | 'owned'): CallContext => ({
  workspace_id: ws.workspace.id,
  principal: { type: 'user', id, scopes: ['contacts:write'] },
  visibility,
});

const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write']));
const secret = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Hidden', last_name: 'Holder', phone: '+1 415 555 0301', owner_id: ws.user.id })).body.id;
const repsOwn = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Own', phone: '+1 415 555 0302', owner_id: rep })).body.id;

async function refusal(call: Promise<unknown>): Promise<CrmError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof CrmError)) throw new Error(`expected a CrmError, got ${String(error)}`);
  return error;
}

async function contactCount(): Promise<number> {
  const [row] = await stack.db.query<{ n: string }>('select count(*) n from contacts where workspace_id = $1', [ws.workspace.id]);
  return Number(row?.n);
}

t.test("an owned member is not told that a contact they cannot see holds the number", async (t) => {
  // Before, the answer said "A contact with phone +14155550301 already exists in this workspace."
  const before = await contactCount();
  // One after the other: a call started before the loop awaits it would reject unhandled.
  for (const attempt of [
    () => bus.call(createContact, { first_name: 'Probe', phone: '(415) 555-0301' }, { context: as(rep, 'owned'), requestId: 'req_phone_probe' }),
    () => bus.call(updateContact, { id: repsOwn, phone: '+14155550301' }, { context: as(rep, 'owned'), requestId: 'req_phone_probe' }),
  ]) {
    const error = await refusal(attempt());
    t.equal(error.code, 'phone_taken', 'refused (phones are unique per workspace), with the documented code');
    t.equal(error.details.existing_id, undefined, 'no id');
    t.notMatch(error.message, /already exists|contact with phone/i, 'no claim that a contact exists');
    t.notMatch(error.message, /4155550301|Hidden|Holder/, 'neither the number nor the holder');
    t.match(error.message, /cannot be used .* A member who sees all contacts \(an administrator\) can tell you why/, 'and the honest user learns whom to ask');
  }
  t.equal(await contactCount(), before, 'nothing was written');
  const [own] = await stack.db.query<{ phone: string }>('select phone from contacts where id = $1 and workspace_id = $2', [repsOwn, ws.workspace.id]);
  t.equal(own?.phone, '+14155550302', "the member's own contact kept its number");
});

t.test('callers who may see the holder are told which contact it is', async (t) => {
  const own = await refusal(bus.call(createContact, { first_name: 'Again', phone: '+1 415 555 0302' }, { context: as(rep, 'owned'), requestId: 'req_phone_own' }));
  t.equal(own.details.existing_id, repsOwn, "the owned member's own contact is named");
  const all = await refusal(bus.call(createContact, { first_name: 'Dup', phone: '+1 415 555 0301' }, { context: as(ws.user.id, 'all'), requestId: 'req_phone_all' }));
  t.equal(all.details.existing_id, secret, 'a member who sees all contacts gets the id');
  t.match(all.message, /already exists in this workspace/);
  const rest = await api.post<{ error: { code: string; existing_id?: string } }>('/v1/contacts', { first_name: 'Dup', phone: '+1 415 555 0301' });
  t.equal(rest.status, 409);
  t.equal(rest.body.error.existing_id, secret, 'and so does an API token (it reads company-wide)');
});
