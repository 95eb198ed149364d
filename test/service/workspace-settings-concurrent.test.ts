import t from 'tap';
import type { WorkspaceSettings } from '../../shared/contracts/workspace-settings.js';
import type { ListPage } from '../helpers/api-types.js';
import { whileHeld } from '../helpers/held-lock.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * Two settings changed at once: each change's workspace.updated names only what it changed.
 * The update read the settings before taking the row's lock, so one waiting for another's
 * update reported the other's field as its own change too (a wrong actor in the feed,
 * webhooks and the Activity page).
 */

const stack = await useStack(t);

t.test("an update waiting for another's names only its own fields as changed", async (t) => {
  const ws = await stack.bootstrap({ defaultCountry: 'US' });
  const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['schema:write', 'events:read']));
  // The other update (of time_zone), made and not yet committed while this one (of default_country) runs.
  const other = [{ sql: `update workspaces set time_zone = 'Europe/Paris', updated_at = now() where id = $1`, params: [ws.workspace.id] }];
  const { result, waited } = await whileHeld(stack.db.url, other, () => api.send<WorkspaceSettings>('PATCH', '/v1/workspace', { body: { default_country: 'FR' } }));
  t.ok(waited, 'the update waits for the other');
  t.equal(result.status, 200);
  t.match(result.body, { time_zone: 'Europe/Paris', default_country: 'FR' }, 'both changes stand');

  const events = await api.get<ListPage<{ data: { object: WorkspaceSettings; previous_attributes: Record<string, unknown> } }>>('/v1/events?type=workspace.updated');
  t.equal(events.body.data.length, 1);
  t.same(events.body.data[0]?.data.previous_attributes, { default_country: 'US' }, 'only default_country, which this update changed');
});

t.test('an update does not wait for writes in flight in the workspace (nor hold them off)', async (t) => {
  const ws = await stack.bootstrap({ defaultCountry: 'US' });
  const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['schema:write']));
  // What an insert's foreign key to the workspace takes on its row, held as by a long import batch.
  const insertInFlight = [{ sql: 'select 1 from workspaces where id = $1 for key share', params: [ws.workspace.id] }];
  const { result, waited } = await whileHeld(stack.db.url, insertInFlight, () => api.send<WorkspaceSettings>('PATCH', '/v1/workspace', { body: { time_zone: 'Asia/Tokyo' } }));
  t.notOk(waited, 'no wait for the insert: the settings lock (FOR NO KEY UPDATE) leaves key-share locks be');
  t.equal(result.status, 200);
  t.equal(result.body.time_zone, 'Asia/Tokyo');
});
