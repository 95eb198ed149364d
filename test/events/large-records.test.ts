import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import t from 'tap';
import type { ImportSummary } from '../../cli/commands/import.js';
import type { Event } from '../../shared/contracts/events.js';
import { newId } from '../../shared/ids.js';
import type { Contact, ErrorBody, ListPage } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { startStack } from '../helpers/stack.js';
import { receiversClosedWith } from '../helpers/webhook-receiver.js';

/**
 * Records near the size limits, against NATS's default message size (1 MB): a record's
 * custom field values are capped so that one record and one event always fit in a
 * message; a page of large records is cut to what fits, and continues; an event too
 * large for a message (stored before the cap) does not stall the relay for everyone.
 */
const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
t.teardown(() => stack.stop());
const receiver = receiversClosedWith(t);

/** 2,000 characters of three bytes each in UTF-8: 6 KB of JSON per value. */
const long = (char: string) => char.repeat(2_000);
const keys = Array.from({ length: 51 }, (_, i) => `notes_${String(i + 1).padStart(2, '0')}`);

async function workspaceWithTextFields(count: number) {
  const { workspace } = await stack.bootstrap({ defaultCountry: 'US' });
  const api = client(stack.baseUrl, await stack.token(workspace.id, ['contacts:write', 'schema:write', 'events:read', 'webhooks:write']));
  for (const key of keys.slice(0, count)) {
    const res = await api.post('/v1/custom-fields', { object_type: 'contact', key, label: key, type: 'text' });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  }
  return { workspace, api };
}

let phone = 2000;
const newPhone = () => `+1 415 555 ${phone++}`;
const valuesOf = (fieldKeys: string[], char: string) => Object.fromEntries(fieldKeys.map((key) => [key, long(char)]));

const big = await workspaceWithTextFields(51);
const hook = await receiver();
const endpoint = await big.api.post<{ id: string; secret: string }>('/v1/webhook-endpoints', { url: hook.url, enabled_events: ['contact.created', 'contact.updated'] });
hook.secret = endpoint.body.secret;
const eventCount = async () => Number((await stack.db.query<{ n: string }>('select count(*) as n from events where workspace_id = $1', [big.workspace.id]))[0]?.n);

/** A request body is at most 100 KB (BODY_LIMIT): a record grows by 15 values of 6 KB at a time. */
const batches = (fieldKeys: string[]) => Array.from({ length: Math.ceil(fieldKeys.length / 15) }, (_, i) => fieldKeys.slice(i * 15, i * 15 + 15));

t.test('custom field values past 300 KB on one record are refused, on create and on update, and change nothing', async (t) => {
  const [firstBatch = [], ...rest] = batches(keys.slice(0, 45));
  const contact = await big.api.post<Contact>('/v1/contacts', { first_name: 'Growing', phone: newPhone(), custom_fields: valuesOf(firstBatch, '語') });
  t.equal(contact.status, 201);
  for (const batch of rest) t.equal((await big.api.send('PATCH', `/v1/contacts/${contact.body.id}`, { body: { custom_fields: valuesOf(batch, '語') } })).status, 200, 'growing by 90 KB');
  const events = await eventCount();
  const more = await big.api.send<ErrorBody>('PATCH', `/v1/contacts/${contact.body.id}`, { body: { custom_fields: valuesOf(keys.slice(45), '語') } });
  t.equal(more.status, 400, 'six more values, merged over the 45 stored, pass 300 KB');
  t.match(more.body.error, { code: 'validation_failed', param: 'custom_fields', message: /at most 300 KB in all/ });
  const stored = await big.api.get<Contact>(`/v1/contacts/${contact.body.id}`);
  t.equal(stored.body.custom_fields[keys[45] ?? ''], null, 'the contact is as it was');
  t.equal(stored.body.custom_fields[keys[44] ?? ''], long('語'));
  t.equal(await eventCount(), events, 'and the refusal recorded nothing');

  // Replacing 15 of the 45 values: the event carries the record (270 KB) and the 15 old values.
  const replaced = await big.api.send<Contact>('PATCH', `/v1/contacts/${contact.body.id}`, { body: { custom_fields: valuesOf(keys.slice(0, 15), '話') } });
  t.equal(replaced.status, 200);
  const feed = await big.api.get<ListPage<Event>>(`/v1/events?object_id=${contact.body.id}&type=contact.updated&limit=100`);
  t.equal(feed.status, 200, 'the record history reads');
  const [event] = feed.body.data;
  t.equal(Object.keys((event?.data.previous_attributes?.custom_fields ?? {}) as object).length, 15, 'with every old value');
  t.equal((await big.api.get<Event>(`/v1/events/${event?.id}`)).status, 200, 'and the event by its id');
  const [delivered] = await hook.waitFor(1, (r) => r.event.id === event?.id);
  t.ok(delivered?.verified, 'the webhook verifies');
  t.equal((delivered?.event.data.object.custom_fields as Record<string, string>)[keys[0] ?? ''], long('話'), 'and carries the record whole');
});

t.test('a record stored larger than the limit before it existed is not frozen: only growing or keeping its values too large is refused', async (t) => {
  const contact = await big.api.post<Contact>('/v1/contacts', { first_name: 'Legacy large', phone: newPhone() });
  const legacy = JSON.stringify(valuesOf(keys, '語'));
  // Written around the limit (session_replication_role skips triggers), as a row from before it.
  await stack.db.query(`begin; set local session_replication_role = replica; update contacts set custom_fields = '${legacy}'::jsonb where id = '${contact.body.id}'; commit;`);
  t.equal((await big.api.send('PATCH', `/v1/contacts/${contact.body.id}`, { body: { status: 'archived' } })).status, 200, 'archived');
  t.equal((await big.api.send('PATCH', `/v1/contacts/${contact.body.id}`, { body: { last_name: 'Still large' } })).status, 200, 'renamed');
  const touched = await big.api.send<ErrorBody>('PATCH', `/v1/contacts/${contact.body.id}`, { body: { custom_fields: { [keys[0] ?? '']: 'short' } } });
  t.equal(touched.status, 400, 'a change of its values that leaves them too large is refused');
  t.equal(touched.body.error.param, 'custom_fields');
});

t.test('an import reports a row whose values pass the limit, and imports the others', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'crm-large-import-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const header = ['first_name', 'phone', ...keys.map((key) => `custom.${key}`)];
  const row = (name: string, count: number) => [name, newPhone(), ...keys.map((_, i) => (i < count ? long('語') : ''))].join(',');
  const file = path.join(dir, 'contacts.csv');
  await writeFile(file, `${[header.join(','), row('Small', 1), row('Too large', 51), row('Large', 45)].join('\n')}\n`);
  const res = await stack.crm(['import', 'contacts', file, '--workspace', big.workspace.id, '--batch-size', '1', '--json']);
  t.equal(res.code, 3, 'the row too large is in the errors file: exit 3');
  const summary = JSON.parse(res.stdout) as ImportSummary;
  t.match(summary, { rows: 3, created: 2 });
  const errors = await readFile(summary.errors_file, 'utf8');
  t.match(errors, /^3,custom_fields,.*at most 300 KB in all/m, 'line 3 of the file, with the reason');
});

t.test('a page of large records is cut to what one bus message carries; links.next continues with the rest', async (t) => {
  const { api } = await workspaceWithTextFields(4);
  const created: string[] = [];
  // About 25 KB each: 45 of them are more than 1 MB.
  for (let i = 0; i < 45; i++) created.push((await api.post<Contact>('/v1/contacts', { first_name: `Wide ${i}`, phone: newPhone(), custom_fields: valuesOf(keys.slice(0, 4), '語') })).body.id);
  const first = await api.get<ListPage<Contact>>('/v1/contacts?limit=100');
  t.equal(first.status, 200);
  t.ok(first.body.data.length > 1 && first.body.data.length < 45, `the first page holds ${first.body.data.length} of 45`);
  t.type(first.body.links.next, 'string', 'with links.next to the rest');
  const all = await api.allPages<Contact>('/v1/contacts?limit=100');
  t.same(all.ids, created, 'every contact once, in order, across the pages');
  t.notOk(await stack.allOutput().then((out) => /reply larger than the bus carries/.test(out)), 'no reply was too large');
});

t.test('an event too large for one NATS message is published without its data, and the events after it flow', async (t) => {
  const contact = await big.api.post<Contact>('/v1/contacts', { first_name: 'Legacy', phone: newPhone() });
  // As if stored before the cap: 1.5 MB of data in one event, waiting in the outbox.
  const id = newId('event');
  await stack.db.query(
    `with e as (
       insert into events (id, workspace_id, type, object_type, object_id, owner_id, data, previous_attributes, request_id, actor, created_at)
       select $1, workspace_id, 'contact.updated', object_type, object_id, owner_id, data || jsonb_build_object('first_name', repeat('x', 1500000)), null, request_id, actor, now()
       from events where object_id = $2 and type = 'contact.created'
       returning id, created_at)
     insert into event_outbox (event_id, created_at) select id, created_at from e`,
    [id, contact.body.id],
  );
  const after = await big.api.post<Contact>('/v1/contacts', { first_name: 'After', phone: newPhone() });
  const [omitted] = await hook.waitFor(1, (r) => r.event.id === id, 20_000);
  t.match(omitted?.event, { id, type: 'contact.updated', data_omitted: true, data: { object: { id: contact.body.id, object: 'contact' }, previous_attributes: null } });
  t.ok(omitted?.verified, 'signed like any delivery');
  const [next] = await hook.waitFor(1, (r) => r.event.data.object.id === after.body.id, 20_000);
  t.equal(next?.event.data.object.first_name, 'After', 'the next event arrives whole');
  t.same(await stack.db.query('select event_id from event_outbox'), [], 'the outbox is empty');

  // Nor does it stop the feed: read alone, or in a page, it is given the same way.
  const alone = await big.api.get<Event>(`/v1/events/${id}`);
  t.equal(alone.status, 200);
  t.match(alone.body, { id, data_omitted: true, data: { object: { id: contact.body.id } } });
  const history = await big.api.allPages<Event>(`/v1/events?object_id=${contact.body.id}&limit=100`);
  t.same(history.ids.sort(), [id, (await stack.db.query<{ id: string }>("select id from events where object_id = $1 and type = 'contact.created'", [contact.body.id]))[0]?.id].sort(), 'the feed reads past it');
  t.equal(history.items.find((e) => e.id === id)?.data_omitted, true);
});
