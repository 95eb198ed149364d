import t from 'tap';
import { signInToConsole } from '../helpers/console-forms.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';
import type { Deal, Pipeline } from '../helpers/api-types.js';

/** The console's deals board (plain HTTP): deals in an archived stage stay on it. */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const W = ws.workspace.id;
const api = client(stack.baseUrl, await stack.token(W, ['deals:write', 'schema:write']));

t.test('a stage archived with deals in it keeps a column while it holds any; an empty archived stage has none', async (t) => {
  const pipe = (await api.post<Pipeline>('/v1/pipelines', { name: 'Board', stages: ['Open', 'Stalled', 'Dropped', 'Done'] })).body;
  const [, stalled, dropped] = pipe.stages;
  const deal = (await api.post<Deal>('/v1/deals', { name: 'Left in Stalled', pipeline_id: pipe.id, stage_id: stalled!.id })).body;
  for (const stage of [stalled!, dropped!]) t.equal((await api.send('DELETE', `/v1/pipelines/${pipe.id}/stages/${stage.id}`)).status, 200);

  const forms = await signInToConsole(stack.baseUrl, W, ws.user.email, TEST_PASSWORD);
  const board = await forms.browser.request(`${stack.baseUrl}/console/w/${W}/deals?pipeline=${pipe.id}`);
  t.equal(board.status, 200);
  const html = await board.text();
  t.match(html, `id="stage-${stalled!.id}"`, 'the archived stage holding a deal has its column');
  t.match(html, /Stalled <span class="muted">\(archived\)<\/span>/, 'marked archived');
  t.match(html, 'Left in Stalled', 'with its deal');
  t.notMatch(html, `id="stage-${dropped!.id}"`, 'an archived stage without deals has no column');

  const single = await forms.browser.request(`${stack.baseUrl}/console/w/${W}/deals?pipeline=${pipe.id}&stage=${stalled!.id}`);
  t.equal(single.status, 200, "the archived stage's own page");
  t.match(await single.text(), deal.name);
});

t.test("a stage's later page and the tokens' later page lead back to the first", async (t) => {
  // Before, "Next page" led on and only the browser's back button led back.
  const pipe = (await api.post<Pipeline>('/v1/pipelines', { name: 'Paged', stages: ['Many'] })).body;
  const stage = pipe.stages[0]!;
  for (let i = 0; i < 51; i++) t.equal((await api.post<Deal>('/v1/deals', { name: `Deal ${i}`, pipeline_id: pipe.id, stage_id: stage.id })).status, 201);
  const forms = await signInToConsole(stack.baseUrl, W, ws.user.email, TEST_PASSWORD);
  const links = (html: string) => [...html.matchAll(/<nav class="pager" aria-label="Pages">([\s\S]*?)<\/nav>/g)].flatMap((m) => [...(m[1] ?? '').matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((l) => [l[2], (l[1] ?? '').replace(/&amp;/g, '&')]));
  const get = async (path: string) => (await forms.browser.request(`${stack.baseUrl}${path}`)).text();

  const base = `/console/w/${W}/deals`;
  const first = links(await get(`${base}?pipeline=${pipe.id}&stage=${stage.id}`));
  t.same(first.map(([text]) => text), ['Next page'], 'the first page leads on only');
  const later = links(await get(first[0]![1]!));
  t.same(later, [['First page', `${base}?pipeline=${pipe.id}&stage=${stage.id}`]], 'the last page leads back to the first');

  const tokenApi = client(stack.baseUrl, await stack.token(W, ['tokens:write', 'contacts:read']));
  for (let i = 0; i < 50; i++) t.equal((await tokenApi.post('/v1/tokens', { name: `Paged ${i}`, scopes: ['contacts:read'] })).status, 201);
  const tokensBase = `/console/w/${W}/tokens`;
  const tokensFirst = links(await get(`${tokensBase}?revoked=1`));
  t.same(tokensFirst.map(([text]) => text), ['More tokens']);
  const tokensLater = links(await get(tokensFirst[0]![1]!));
  t.same(tokensLater, [['First page', `${tokensBase}?revoked=1`]], 'keeping the choice to show revoked tokens');
});
