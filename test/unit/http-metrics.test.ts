import type { AddressInfo } from 'node:net';
import express, { Router } from 'express';
import { Registry } from 'prom-client';
import t from 'tap';
import { httpMetrics } from '../../gateway/metrics/http-metrics.js';

/**
 * The route label of the gateway's HTTP metrics, on an app mounted as the gateway's is:
 * routers under paths with parameters of their own (the console's /w/:workspaceId/…).
 * Before, the mount point came from the request path, so each workspace id, and any text
 * sent in its place, made series of its own.
 */
const registry = new Registry();
const app = express();
app.use(httpMetrics(registry));

const contacts = Router();
contacts.get('/', (_req, res) => void res.send('list'));
contacts.get('/:id', (_req, res) => void res.send('one'));
const pages = Router();
pages.post('/{*path}', (_req, _res, next) => next(new Error('refused before any page')));
pages.use('/w/:workspaceId/contacts', contacts);
app.use('/console', pages);

const v1 = Router();
v1.get('/contacts/:id', (_req, res) => void res.send('one'));
app.use('/v1', v1);
app.get('/healthz', (_req, res) => void res.send('ok'));
app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(403).send('refused'));

const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
t.teardown(() => new Promise((resolve) => server.close(resolve)));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

t.test('a route is labelled by its own pattern and those of its mounts, never by what they matched', async (t) => {
  const paths = [
    '/console/w/ws_01AAAAAAAAAAAAAAAAAAAAAAAA/contacts',
    '/console/w/ws_01BBBBBBBBBBBBBBBBBBBBBBBB/contacts/',
    '/console/w/anything-at-all/contacts/con_01CCCCCCCCCCCCCCCCCCCCCCCC',
    '/console/w/ws_01DDDDDDDDDDDDDDDDDDDDDDDD/contacts/con_01EEEEEEEEEEEEEEEEEEEEEEEE',
    '/v1/contacts/con_01FFFFFFFFFFFFFFFFFFFFFFFF',
    '/healthz',
    '/nowhere/ws_01GGGGGGGGGGGGGGGGGGGGGGGG',
  ];
  for (const path of paths) await (await fetch(`${base}${path}`)).text();
  for (const path of ['/console/w/ws_01HHHHHHHHHHHHHHHHHHHHHHHH/contacts/con_01JJJJJJJJJJJJJJJJJJJJJJJJ/archive', '/console/a/b/c/d']) {
    await (await fetch(`${base}${path}`, { method: 'POST' })).text();
  }
  const series = (await registry.getSingleMetric('crm_http_requests_total')?.get())?.values ?? [];
  const routes = [...new Set(series.map((v) => `${v.labels.method} ${String(v.labels.route)} ${String(v.labels.status)}`))].sort();
  t.same(routes, [
    'GET /console/w/:workspaceId/contacts 200',
    'GET /console/w/:workspaceId/contacts/:id 200',
    'GET /healthz 200',
    'GET /v1/contacts/:id 200',
    'GET unmatched 404',
    'POST /console/{*path} 403',
  ]);
});

t.test('a router built at its first request (the OAuth metadata documents) is labelled by its mount', async (t) => {
  // Before, its routes were not found under the app's router: each was labelled "", all three documents alike.
  const { lazyHandler } = await import('../../gateway/lazy-handler.js');
  const registry = new Registry();
  const app = express();
  app.use(httpMetrics(registry));
  const metadata = (name: string) => {
    const router = Router();
    router.get('/', (_req, res) => void res.send(name));
    return router;
  };
  const wellKnown = Router();
  wellKnown.use('/.well-known/oauth-authorization-server', lazyHandler(() => metadata('server')));
  wellKnown.use('/.well-known/oauth-protected-resource/mcp/crm', lazyHandler(() => metadata('crm')));
  app.use(wellKnown);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/oauth-protected-resource/mcp/crm', '/.well-known/oauth-protected-resource/mcp/crm']) {
    t.equal(await (await fetch(`${base}${path}`)).text(), path.endsWith('crm') ? 'crm' : 'server', 'the built router answers');
  }
  const series = (await registry.getSingleMetric('crm_http_requests_total')?.get())?.values ?? [];
  t.same(series.map((v) => `${String(v.labels.route)} ${v.value}`).sort(), ['/.well-known/oauth-authorization-server 1', '/.well-known/oauth-protected-resource/mcp/crm 2']);
});
