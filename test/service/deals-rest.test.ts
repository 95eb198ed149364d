import t from 'tap';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { getDeal, updateDeal } from '../../shared/contracts/deals.js';
import { newId } from '../../shared/ids.js';
import { busAs } from '../helpers/bus-as.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import type { Deal, ErrorBody } from '../helpers/api-types.js';

/** Deals over REST as a demanding client uses them: refusals that say what is wrong and change nothing. */

const stack = await useStack(t);
const a = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(a.workspace.id, ['contacts:write', 'deals:write', 'schema:write']));

t.test('an amount past what a JSON number holds exactly is refused for its size, not as a fraction', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Big one', amount: 100, currency: 'USD' })).body;
  for (const amount of [1e20, 9007199254740992]) {
    const res = await api.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { amount } });
    t.equal(res.status, 400, `${amount}`);
    t.equal(res.body.error.param, 'amount');
    // Before: "must be a whole number of minor units", of a whole number.
    t.match(res.body.error.message, /at most 9007199254740991/, `${amount}: says the limit`);
  }
  const negative = await api.post<ErrorBody>('/v1/deals', { name: 'x', amount: -5, currency: 'USD' });
  t.equal(negative.status, 400);
  t.match(negative.body.error.message, /amount: must not be negative/);
  const fraction = await api.post<ErrorBody>('/v1/deals', { name: 'x', amount: 1.5, currency: 'USD' });
  t.match(fraction.body.error.message, /amount: must be a whole number/);
  t.equal((await api.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { amount: 9007199254740991 } })).body.amount, 9007199254740991, 'the largest is taken');
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.amount, 9007199254740991);
});

t.test('the deal list filters by owner: a member id, bound into links.next; an unknown one is a 404', async (t) => {
  const other = await stack.bootstrap({ defaultCountry: 'US' });
  const member = { id: await stack.addMember(a.workspace.id, `seller-${Date.now()}@example.com`, ['deals.read', 'deals.write'], 'all') };
  const mine = [];
  for (let i = 0; i < 3; i++) mine.push((await api.post<Deal>('/v1/deals', { name: `Owned ${i}`, owner_id: member.id })).body.id);
  await api.post<Deal>('/v1/deals', { name: 'Unowned' });
  await api.post<Deal>('/v1/deals', { name: 'Admin owned', owner_id: a.user.id });

  const { ids, pages } = await api.allPages<Deal>(`/v1/deals?owner_id=${member.id}&limit=2`);
  t.same(ids, mine, "only the member's deals, every one once");
  t.match(pages[0]?.links.next, new RegExp(`owner_id=${member.id}`), 'the filter travels in links.next');
  const cursor = new URL(pages[0]!.links.next!).searchParams.get('cursor')!;
  const widened = await api.get<ErrorBody>(`/v1/deals?limit=2&cursor=${encodeURIComponent(cursor)}`);
  t.equal(widened.status, 400, 'a cursor of the filtered list does not continue the whole one');
  t.equal(widened.body.error.code, 'invalid_cursor');

  for (const owner of ['usr_nobody', other.user.id]) {
    const res = await api.get<ErrorBody>(`/v1/deals?owner_id=${owner}`);
    t.equal(res.status, 404, `${owner}: not a member here`);
    t.equal(res.body.error.param, 'owner_id');
  }
  const empty = await api.get<ErrorBody>('/v1/deals?owner_id=');
  t.equal(empty.status, 400);
  t.equal(empty.body.error.param, 'owner_id');
});

t.test('a rename or a new stage onto a name in use is a 409 naming its holder in existing_id, as a create is', async (t) => {
  type Pipeline = { id: string; name: string; updated_at: string; stages: { id: string; name: string }[] };
  type Conflict = ErrorBody & { error: { existing_id?: string } };
  const first = (await api.post<Pipeline>('/v1/pipelines', { name: 'Partners', stages: ['Intro', 'Pilot'] })).body;
  const second = (await api.post<Pipeline>('/v1/pipelines', { name: 'Resellers', stages: ['Intro', 'Signed'] })).body;

  const created = await api.post<Conflict>('/v1/pipelines', { name: 'partners' });
  t.equal(created.body.error.existing_id, first.id, 'a create says it (as before)');
  const renamed = await api.send<Conflict>('PATCH', `/v1/pipelines/${second.id}`, { body: { name: 'PARTNERS' } });
  t.equal(renamed.status, 409);
  t.equal(renamed.body.error.param, 'name');
  t.equal(renamed.body.error.existing_id, first.id, 'and now a rename too (before: no existing_id)');
  t.same((await api.get<Pipeline>(`/v1/pipelines/${second.id}`)).body, second, 'the refused rename changed nothing');
  t.equal((await api.send<Pipeline>('PATCH', `/v1/pipelines/${second.id}`, { body: { name: 'resellers' } })).status, 200, 'its own name in other case is no conflict');

  const [intro, pilot] = first.stages;
  const added = await api.post<Conflict>(`/v1/pipelines/${first.id}/stages`, { name: 'pilot', position: 0 });
  t.equal(added.status, 409);
  t.equal(added.body.error.existing_id, pilot?.id, 'a new stage names the stage that has the name');
  const stageRenamed = await api.send<Conflict>('PATCH', `/v1/pipelines/${first.id}/stages/${intro?.id}`, { body: { name: 'Pilot', position: 1 } });
  t.equal(stageRenamed.status, 409);
  t.equal(stageRenamed.body.error.existing_id, pilot?.id, 'so does a stage rename');
  t.same((await api.get<Pipeline>(`/v1/pipelines/${first.id}`)).body, first, 'neither refused change moved or renamed anything');
  t.equal((await api.post(`/v1/pipelines/${second.id}/stages`, { name: 'Pilot' })).status, 201, "another pipeline's stage names are free");
});

t.test("an owned member may give back their deal's contact_id with a change, though someone else owns that contact", async (t) => {
  // Called over NATS as the gateway calls the deals worker for an OAuth agent or the console (REST tokens read company-wide).
  const bus = await busAs(t, stack, 'gateway');
  const rep = await stack.addMember(a.workspace.id, `rep-${Date.now()}@example.com`, ['contacts.write', 'deals.write'], 'owned');
  const repCtx: CallContext = { workspace_id: a.workspace.id, principal: { type: 'user', id: rep, scopes: ['contacts:write', 'deals:write'] }, visibility: 'owned' };
  const call = <Op extends typeof getDeal | typeof updateDeal>(op: Op, input: Parameters<typeof bus.call<Op>>[1]) =>
    bus.call(op, input, { context: repCtx, requestId: 'req_deals_rest' }).then((r) => r.result);
  const adminsContact = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Admin', phone: '+1 415 555 0301', owner_id: a.user.id })).body.id;
  const repsContact = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Rep', phone: '+1 415 555 0302', owner_id: rep })).body.id;
  // An administrator gives the rep a deal with a contact the rep does not own.
  const handed = (await api.post<Deal>('/v1/deals', { name: 'Handed over', owner_id: rep, contact_id: adminsContact })).body;

  const read = await call(getDeal, { id: handed.id });
  t.equal(read.contact_id, adminsContact, 'the rep reads the deal and its contact_id');
  // Before: a 404 on contact_id, though the PATCH linked no contact.
  const renamed = await call(updateDeal, { id: handed.id, name: 'Handed over, renamed', contact_id: read.contact_id });
  t.match(renamed, { name: 'Handed over, renamed', contact_id: adminsContact });

  // A contact the deal does not have is still checked: one the rep cannot see is a 404 and changes nothing.
  const other = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Other', phone: '+1 415 555 0303', owner_id: a.user.id })).body.id;
  await t.rejects(call(updateDeal, { id: handed.id, name: 'Moved', contact_id: other }), { code: 'not_found', details: { param: 'contact_id' } });
  t.equal((await call(getDeal, { id: handed.id })).name, 'Handed over, renamed', 'the refused PATCH changed nothing');
  t.equal((await call(updateDeal, { id: handed.id, contact_id: repsContact })).contact_id, repsContact, 'their own contact links');
});

t.test('a pipeline name given as pipeline_id is a 404 that says the filter takes an id', async (t) => {
  const res = await api.get<ErrorBody>('/v1/deals?pipeline_id=Sales');
  t.equal(res.status, 404);
  t.equal(res.body.error.param, 'pipeline_id');
  // Before: only "No such pipeline: Sales.", though Sales exists.
  t.match(res.body.error.message, /pipeline_id takes a pipeline id \(pipe_…\), not a name/);
  const id = await api.get<ErrorBody>('/v1/deals?pipeline_id=pipe_nope');
  t.equal(id.body.error.message, 'No such pipeline: pipe_nope.', 'an unknown id is told as before');
});

t.test('a closed_at that rounds to the millisecond past the year 9999 is a 400 on closed_at, and nothing is written', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Closing late' })).body;
  for (const closedAt of ['9999-12-31T23:59:59.9999Z', '9999-12-31T23:59:59.9995Z']) {
    // Before: Postgres rounded it into the year 10000, which no timestamp of ours can show: a 500 (and a created deal stayed).
    const created = await api.post<ErrorBody>('/v1/deals', { name: `Never ${closedAt}`, closed_at: closedAt });
    t.equal(created.status, 400, `create ${closedAt}`);
    t.equal(created.body.error.param, 'closed_at');
    t.match(created.body.error.message, /outside the years 0001 to 9999/);
    const updated = await api.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { closed_at: closedAt } });
    t.equal(updated.status, 400, `update ${closedAt}`);
    t.equal(updated.body.error.param, 'closed_at');
  }
  const { items } = await api.allPages<Deal>('/v1/deals?q=never');
  t.same(items, [], 'no deal was created');
  t.same((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, deal, 'the deal is unchanged');
  const last = await api.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { closed_at: '9999-12-31T23:59:59.9994Z' } });
  t.equal(last.body.closed_at, '9999-12-31T23:59:59.999Z', 'the last millisecond of 9999 is taken');
});

t.test("a deal's name of only invisible characters is a 400 on name, as a contact's first name is", async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Visible' })).body;
  for (const name of ['\u200b', ' \u200b\u2060 ', '\u3164']) {
    // Before: taken, and shown as a blank card on the board and a blank line in every list.
    const created = await api.post<ErrorBody>('/v1/deals', { name });
    t.equal(created.status, 400, `create ${JSON.stringify(name)}`);
    t.equal(created.body.error.param, 'name');
    t.match(created.body.error.message, /visible text/);
    const updated = await api.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { name } });
    t.equal(updated.status, 400, `update ${JSON.stringify(name)}`);
    t.equal(updated.body.error.param, 'name');
  }
  t.same((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, deal, 'the deal is unchanged');
  t.equal((await api.post<Deal>('/v1/deals', { name: 'Zoë\u200bCo' })).status, 201, 'a name that shows may hold one');
});

t.test('a closed_at before the year 100 is compared as that year: given again it changes nothing, and 1999 is a change', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Ancient', closed_at: '0099-06-01T00:00:00Z' })).body;
  t.equal(deal.closed_at, '0099-06-01T00:00:00.000Z');
  // Before: the stored value was read as 1999, so the same instant looked changed and was written again.
  const again = await api.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { closed_at: '0099-06-01T00:00:00Z' } });
  t.equal(again.status, 200);
  t.equal(again.body.updated_at, deal.updated_at, 'nothing written: updated_at stays');
  // Before: 1999 looked like what was stored, and the deal kept 0099 under a 200.
  const moved = await api.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { closed_at: '1999-06-01T00:00:00Z' } });
  t.equal(moved.body.closed_at, '1999-06-01T00:00:00.000Z');
  t.equal((await api.get<Deal>(`/v1/deals/${deal.id}`)).body.closed_at, '1999-06-01T00:00:00.000Z', 'stored');
});

t.test('a precondition that cannot hold (If-Match with a tag not current, …) is a 412, and nothing changes', async (t) => {
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Guarded' })).body;
  const conditions: [string, string, string][] = [
    ['PATCH', 'If-Match', '"stale-version"'],
    ['PATCH', 'If-Unmodified-Since', 'Mon, 01 Jan 2001 00:00:00 GMT'],
    ['PATCH', 'If-None-Match', '*'],
    ['DELETE', 'If-Match', '"stale-version"'],
    ['DELETE', 'If-Match', 'W/"1", "2"'],
  ];
  for (const [method, header, value] of conditions) {
    // Before: the header was ignored, and the write the client meant to stop went through.
    const res = await api.send<ErrorBody>(method, `/v1/deals/${deal.id}`, { body: method === 'PATCH' ? { name: 'Overwritten' } : undefined, headers: { [header]: value } });
    t.equal(res.status, 412, `${method} with ${header}: ${value}`);
    t.equal(res.body.error.code, 'precondition_failed');
    t.match(res.body.error.message, new RegExp(`^${header.replace(/-/g, '\\-')}`), 'the message names the header');
  }
  t.same((await api.get<Deal>(`/v1/deals/${deal.id}`)).body, deal, 'neither changed nor deleted');
  t.equal((await api.get(`/v1/deals/${deal.id}`, { 'If-None-Match': '"x"', 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status, 200, 'a read asking for a 304 is answered in full');
  t.equal((await api.get(`/v1/deals/${deal.id}`, { 'If-Match': '"x"' })).status, 412, 'a read with an If-Match tag cannot hold either');
  t.equal((await api.get(`/v1/deals/${deal.id}`, { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' })).status, 200, 'a read with If-Unmodified-Since changes nothing, and is answered');

  // What always holds goes through, as before: If-Match: * (the record exists), If-Modified-Since on a write (ignored, RFC 9110 §13.1.3).
  const star = await api.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { name: 'Renamed' }, headers: { 'If-Match': '*', 'If-Modified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT', 'If-None-Match': '"some-tag"' } });
  t.equal(star.status, 200, 'If-Match: *, If-Modified-Since and If-None-Match with a tag on a write');
  t.equal(star.body.name, 'Renamed');
  t.equal((await api.send<ErrorBody>('PATCH', `/v1/deals/${newId('deal')}`, { body: { name: 'x' }, headers: { 'If-Match': '*' } })).status, 404, 'If-Match: * on no record: the 404 it always was');
});

t.test('a withdrawn currency is refused for a new value, and kept on a deal that already has it', async (t) => {
  const refused = await api.post<ErrorBody>('/v1/deals', { name: 'Zagreb', amount: 100, currency: 'hrk' });
  t.equal(refused.status, 400);
  t.equal(refused.body.error.param, 'currency');
  t.equal(refused.body.error.message, 'currency: must be an active ISO 4217 currency code: HRK was withdrawn, use EUR.');
  // A deal stored with HRK while it was taken (before the service kept its own list).
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Zagreb', amount: 100, currency: 'EUR' })).body;
  await stack.db.query(`update deals set currency = 'HRK' where id = $1`, [deal.id]);
  const sentBack = await api.send<Deal>('PATCH', `/v1/deals/${deal.id}`, { body: { name: 'Zagreb office', amount: 200, currency: 'HRK' } });
  t.equal(sentBack.status, 200, 'sent back as read, with another amount');
  t.equal(sentBack.body.currency, 'HRK');
  const changed = await api.send<ErrorBody>('PATCH', `/v1/deals/${deal.id}`, { body: { currency: 'BGN' } });
  t.equal(changed.status, 400, 'another withdrawn code is still refused');
  t.equal(changed.body.error.param, 'currency');
});

t.test('a path id the database cannot hold is refused naming the path parameter, not a field of the bus contract', async (t) => {
  const webhooks = client(stack.baseUrl, await stack.token(a.workspace.id, ['webhooks:write']));
  const pipeline = (await api.get<{ data: { id: string; stages: { id: string }[] }[] }>('/v1/pipelines')).body.data[0]!;
  const stage = pipeline.stages[0]!.id;
  // Before: the stage routes answered param "pipeline_id" (no path or body has it) and a delivery's "id" (the endpoint's, in that path).
  const cases: [ReturnType<typeof client>, string, string, unknown, string][] = [
    [api, 'POST', '/v1/pipelines/pipe_%00/stages', { name: 'Nul' }, 'id'],
    [api, 'PATCH', `/v1/pipelines/pipe_%00/stages/${stage}`, { name: 'Nul' }, 'id'],
    [api, 'DELETE', `/v1/pipelines/pipe_%00/stages/${stage}`, undefined, 'id'],
    [api, 'PATCH', `/v1/pipelines/${pipeline.id}/stages/stg_%00`, { name: 'Nul' }, 'stage_id'],
    [webhooks, 'GET', '/v1/webhook-endpoints/we_x/deliveries/msg_%00', undefined, 'delivery_id'],
    [webhooks, 'POST', '/v1/webhook-endpoints/we_%00/deliveries/msg_x/retry', undefined, 'id'],
  ];
  for (const [as, method, path, body, param] of cases) {
    const res = await as.send<ErrorBody>(method, path, body === undefined ? {} : { body });
    t.equal(res.status, 400, `${method} ${path}`);
    t.equal(res.body.error.param, param, `${method} ${path}: names ${param}`);
    t.match(res.body.error.message, new RegExp(`^${param}: must not contain NUL characters or unpaired surrogates`));
  }
  t.equal((await api.get<{ stages: unknown[] }>(`/v1/pipelines/${pipeline.id}`)).body.stages.length, pipeline.stages.length, 'nothing changed');
});

t.test("a stage name only other pipelines have, with pipeline_id, is a 404 listing that pipeline's stages, not an empty list", async (t) => {
  type Pipeline = { id: string; stages: { id: string; name: string }[] };
  const resellers = (await api.post<Pipeline>('/v1/pipelines', { name: `Channel ${Date.now()}`, stages: ['Intro', 'Signed', 'Dormant'] })).body;
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Channel deal', pipeline_id: resellers.id, stage: 'Dormant' })).body;
  // Before: 200 with no deals, as if none were Won there, though the pipeline has no such stage.
  const won = await api.get<ErrorBody>(`/v1/deals?pipeline_id=${resellers.id}&stage=won`);
  t.equal(won.status, 404);
  t.equal(won.body.error.param, 'stage');
  t.match(won.body.error.message, /No such stage in the pipeline "Channel \d+": won\. Its active stage names: "Intro", "Signed", "Dormant"\./);
  const sales = (await api.get<{ data: Pipeline[] }>('/v1/pipelines')).body.data.find((p) => p.stages.some((s) => s.name === 'Won'))!;
  const wonId = sales.stages.find((s) => s.name === 'Won')!.id;
  const byId = await api.get<ErrorBody>(`/v1/deals?pipeline_id=${resellers.id}&stage=${wonId}`);
  t.equal(byId.status, 404, "another pipeline's stage by id, likewise");
  t.equal(byId.body.error.param, 'stage');
  t.match(byId.body.error.message, new RegExp(`No such stage in the pipeline "Channel \\d+": ${wonId}\\. Its active stage names: "Intro"`));
  const missing = await api.get<ErrorBody>('/v1/deals?pipeline_id=pipe_nope&stage=won');
  t.equal(missing.status, 404);
  t.equal(missing.body.error.param, 'pipeline_id', 'a pipeline that does not exist is said as such');

  t.equal((await api.get(`/v1/deals?pipeline_id=${resellers.id}&stage=intro`)).status, 200, 'a stage of the pipeline, without deals: an empty list');
  await api.send('DELETE', `/v1/pipelines/${resellers.id}/stages/${resellers.stages[2]!.id}`);
  const archived = await api.get<{ data: Deal[] }>(`/v1/deals?pipeline_id=${resellers.id}&stage=dormant`);
  t.equal(archived.status, 200, 'an archived stage of the pipeline still filters');
  t.same(archived.body.data.map((d) => d.id), [deal.id]);
});
