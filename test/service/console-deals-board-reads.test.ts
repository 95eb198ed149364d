import t from 'tap';
import { signInToConsole } from '../helpers/console-forms.js';
import { client } from '../helpers/http.js';
import type { CrmProcess } from '../helpers/process.js';
import { startStack, TEST_PASSWORD } from '../helpers/stack.js';
import type { Deal, Pipeline } from '../helpers/api-types.js';

/**
 * The console's deals board reads only the stages that hold deals. Its own stack, for the
 * gateway's metrics: how often the board asks the deals worker, which no other file adds to.
 */
const stack = await startStack({ env: { ADMIN_PORT: '0' } });
t.teardown(() => stack.stop());
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));
const namespace = stack.env.BUS_NAMESPACE ?? '';

async function adminUrl(proc: CrmProcess): Promise<string> {
  const [, port] = await proc.waitFor(/"admin_port":(\d+)/);
  return `http://127.0.0.1:${port}`;
}
const gatewayAdmin = await adminUrl(stack.gateway);

/** Deal list requests the gateway has sent to the workers so far. */
async function dealListReads(): Promise<number> {
  const text = await (await fetch(`${gatewayAdmin}/metrics`)).text();
  const pattern = new RegExp(`^crm_bus_requests_total\\{[^}]*subject="${namespace}\\.deals\\.deals\\.list"[^}]*\\} (\\d+)$`, 'gm');
  return [...text.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);
}

t.test('a pipeline with many archived stages: the board reads the stages holding deals, not every stage', async (t) => {
  const pipe = (await api.post<Pipeline>('/v1/pipelines', { name: 'Years of changes', stages: ['Open', 'Empty', 'Stalled'] })).body;
  const [open, empty, stalled] = pipe.stages;
  await api.post<Deal>('/v1/deals', { name: 'Still open', pipeline_id: pipe.id, stage_id: open!.id });
  await api.post<Deal>('/v1/deals', { name: 'Left in Stalled', pipeline_id: pipe.id, stage_id: stalled!.id });
  t.equal((await api.send('DELETE', `/v1/pipelines/${pipe.id}/stages/${stalled!.id}`)).status, 200);
  for (let i = 0; i < 30; i++) {
    const added = (await api.post<Pipeline>(`/v1/pipelines/${pipe.id}/stages`, { name: `Tried ${i}` })).body;
    const stage = added.stages.find((s) => s.name === `Tried ${i}`)!;
    t.equal((await api.send('DELETE', `/v1/pipelines/${pipe.id}/stages/${stage.id}`)).status, 200);
  }

  const forms = await signInToConsole(stack.baseUrl, W, ws.user.email, TEST_PASSWORD);
  const before = await dealListReads();
  const board = await forms.browser.request(`${stack.baseUrl}/console/w/${W}/deals?pipeline=${pipe.id}`);
  t.equal(board.status, 200);
  // Before: one read per stage, archived ones included: 33 here, and one more with each archive.
  t.equal((await dealListReads()) - before, 2, 'one read for each stage holding deals');
  const html = await board.text();
  t.match(html, 'Still open');
  t.match(html, `id="stage-${empty!.id}"`, 'an active stage without deals keeps its (empty) column');
  t.match(html, 'Left in Stalled', 'an archived stage holding a deal keeps its column');
  t.notMatch(html, /Tried \d+/, 'archived stages without deals have none');
});
