import t, { type Test } from 'tap';
import { client, type ApiResponse } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';
import { storedEvents as storedEventsOf } from '../helpers/stored-events.js';

/**
 * Every write that runs in a transaction (all but a contact create without an Idempotency-Key,
 * which is one statement) commits its data and its event together: with a fault between the
 * data write and the commit (storing this workspace's event fails), the answer is a 500 and
 * neither the change nor an event is stored; once the fault is gone, the same write stores
 * its change and exactly one event. On a stack of its own: the worker logs the fault at
 * error level, which the other files' checks of the shared log would see.
 */
const stack = await startStack();
t.teardown(() => stack.stop());
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const workspaceId = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(workspaceId, ['contacts:write', 'deals:write', 'schema:write', 'events:read']));

async function created<T>(res: Promise<ApiResponse<T>>): Promise<T> {
  const { status, body } = await res;
  if (status !== 201) throw new Error(`setup: ${status} ${JSON.stringify(body)}`);
  return body;
}
const pipeline = await created(api.post<{ id: string; stages: { id: string }[] }>('/v1/pipelines', { name: 'Atomic', stages: ['New', 'Won'] }));
const [, won] = pipeline.stages as [{ id: string }, { id: string }];
const contact = await created(api.post<{ id: string }>('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0100' }));
const deal = await created(api.post<{ id: string }>('/v1/deals', { name: 'Big one', pipeline_id: pipeline.id, amount: 1000, currency: 'EUR' }));
const doomed = await created(api.post<{ id: string }>('/v1/deals', { name: 'Doomed', pipeline_id: pipeline.id }));

await stack.db.query(`create or replace function fail_event() returns trigger language plpgsql as $$ begin raise exception 'injected fault'; end $$`);
const injectFault = () =>
  stack.db.query(`create trigger fail_event before insert on events for each row when (new.workspace_id = '${workspaceId}') execute function fail_event()`);
const removeFault = () => stack.db.query('drop trigger if exists fail_event on events');
t.teardown(removeFault);
let faults = 0;

const storedEvents = () => storedEventsOf(stack.db, workspaceId);
/** Rows as JSON (timestamps as text): what a committed change would alter, updated_at included. */
const rowsOf = async (sql: string, params: unknown[]) => (await stack.db.query<{ row: unknown }>(sql, [workspaceId, ...params])).map((r) => r.row);
const contactRow = () => rowsOf('select to_jsonb(c) as row from contacts c where workspace_id = $1 and id = $2', [contact.id]);
const dealRow = (id: string) => rowsOf('select to_jsonb(d) as row from deals d where workspace_id = $1 and id = $2', [id]);
const dealsNamed = (name: string) => rowsOf('select to_jsonb(d) as row from deals d where workspace_id = $1 and name = $2', [name]);
const idempotencyKey = (key: string) => rowsOf('select to_jsonb(k) as row from idempotency_keys k where workspace_id = $1 and key = $2', [key]);

interface AtomicWrite {
  write: () => Promise<ApiResponse<{ id: string }>>;
  /** The answer without the fault. */
  status: number;
  eventType: string;
  /** What the database holds of the record the write changes (or would create). */
  stored: () => Promise<unknown[]>;
}

/** The write fails under the fault and leaves the record and the events as they were; without the fault it stores both, one event. */
async function checkAtomic(t: Test, { write, status, eventType, stored }: AtomicWrite): Promise<ApiResponse<{ id: string }>> {
  const rowsBefore = await stored();
  const eventsBefore = await storedEvents();
  await injectFault();
  faults++;
  let refused: ApiResponse<{ id: string }>;
  try {
    refused = await write();
  } finally {
    await removeFault();
  }
  t.ok(refused.status >= 500 && refused.status <= 599, `the failed write answers a 5xx (${refused.status})`);
  t.same(await stored(), rowsBefore, 'the record is as it was');
  t.same(await storedEvents(), eventsBefore, 'no event stored');

  const done = await write();
  t.equal(done.status, status, 'without the fault, the same write succeeds');
  t.notSame(await stored(), rowsBefore, 'and changes the record');
  const known = new Set(eventsBefore.map((e) => e.id));
  const added = (await storedEvents()).filter((e) => !known.has(e.id));
  t.same(
    added.map((e) => [e.type, e.object_id, e.request_id]),
    [[eventType, done.body.id, done.headers.get('request-id')]],
    'and stores exactly one event, of the record, by that request',
  );
  return done;
}

t.test('PATCH /v1/contacts/{id}: a new name', async (t) => {
  await checkAtomic(t, {
    write: () => api.send('PATCH', `/v1/contacts/${contact.id}`, { body: { first_name: 'Ada B.' } }),
    status: 200,
    eventType: 'contact.updated',
    stored: contactRow,
  });
  t.match(await contactRow(), [{ first_name: 'Ada B.' }]);
});

t.test('POST /v1/deals', async (t) => {
  await checkAtomic(t, {
    write: () => api.post('/v1/deals', { name: 'Ghost deal', pipeline_id: pipeline.id, amount: 500, currency: 'EUR' }),
    status: 201,
    eventType: 'deal.created',
    stored: () => dealsNamed('Ghost deal'),
  });
  t.equal((await dealsNamed('Ghost deal')).length, 1);
});

t.test('PATCH /v1/deals/{id}: a stage change', async (t) => {
  await checkAtomic(t, {
    write: () => api.send('PATCH', `/v1/deals/${deal.id}`, { body: { stage_id: won.id } }),
    status: 200,
    eventType: 'deal.stage_changed',
    stored: () => dealRow(deal.id),
  });
  t.match(await dealRow(deal.id), [{ stage_id: won.id }]);
});

t.test('DELETE /v1/deals/{id}', async (t) => {
  await checkAtomic(t, {
    write: () => api.send('DELETE', `/v1/deals/${doomed.id}`),
    status: 200,
    eventType: 'deal.deleted',
    stored: () => dealRow(doomed.id),
  });
  t.same(await dealRow(doomed.id), [], 'deleted');
});

t.test('POST /v1/custom-fields', async (t) => {
  const field = () => rowsOf(`select to_jsonb(f) as row from custom_fields f where workspace_id = $1 and key = 'tier'`, []);
  await checkAtomic(t, {
    write: () => api.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'text' }),
    status: 201,
    eventType: 'custom_field.created',
    stored: field,
  });
  t.equal((await field()).length, 1);
});

t.test('POST /v1/pipelines: the pipeline and its stages (written in a savepoint of their own)', async (t) => {
  const hiring = () =>
    rowsOf(
      `select to_jsonb(p) || jsonb_build_object('stages', (select count(*) from stages s where s.pipeline_id = p.id)) as row
       from pipelines p where workspace_id = $1 and name = 'Hiring'`,
      [],
    );
  await checkAtomic(t, {
    write: () => api.post('/v1/pipelines', { name: 'Hiring', stages: ['Applied', 'Hired'] }),
    status: 201,
    eventType: 'pipeline.created',
    stored: hiring,
  });
  t.match(await hiring(), [{ stages: 2 }]);
});

t.test('with an Idempotency-Key the write, its event and the key commit together', async (t) => {
  const key = `atomic-deal-${Date.now()}`;
  const write = () => api.post<{ id: string }>('/v1/deals', { name: 'Keyed deal', pipeline_id: pipeline.id }, { 'idempotency-key': key });
  const stored = async () => [...(await dealsNamed('Keyed deal')), ...(await idempotencyKey(key))];
  t.same(await stored(), []);
  const done = await checkAtomic(t, { write, status: 201, eventType: 'deal.created', stored });
  t.equal((await dealsNamed('Keyed deal')).length, 1, 'one deal');
  t.equal((await idempotencyKey(key)).length, 1, 'the key is kept with it');
  const eventsBefore = await storedEvents();
  const again = await write();
  t.equal(again.status, 201);
  t.equal(again.headers.get('idempotent-replayed'), 'true', 'the key replays its first answer');
  t.equal(again.body.id, done.body.id);
  t.same(await storedEvents(), eventsBefore, 'and stores no event');

  // An update under a key: same path (runIdempotent's transaction), the contact's row this time.
  const patchKey = `atomic-contact-${Date.now()}`;
  await checkAtomic(t, {
    write: () => api.send('PATCH', `/v1/contacts/${contact.id}`, { body: { last_name: 'Lovelace' }, headers: { 'idempotency-key': patchKey } }),
    status: 200,
    eventType: 'contact.updated',
    stored: async () => [...(await contactRow()), ...(await idempotencyKey(patchKey))],
  });
});

t.test('the fault was logged by the worker, and nothing else failed', async (t) => {
  const errors = (await stack.allOutput()).split('\n').filter((line) => line.includes('"level":"error"'));
  t.equal(errors.length, faults, 'the worker logged each fault once, at error level');
  t.ok(
    errors.every((line) => line.includes('injected fault')),
    'every error is the injected fault',
  );
});
