import type { Request, RequestHandler } from 'express';
import type { Registry } from 'prom-client';
import { RequestMetrics } from '../../shared/metrics/request-metrics.js';

/**
 * Counts and times every HTTP request by route pattern (`/v1/contacts/:id`, never the
 * concrete path, so that ids do not multiply the series).
 */
export function httpMetrics(registry: Registry): RequestHandler {
  const metrics = new RequestMetrics<'method' | 'route'>(registry, {
    count: { name: 'crm_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status' },
    duration: { name: 'crm_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method and route pattern' },
    labels: ['method', 'route'],
    outcomeLabel: 'status',
  });
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      metrics.observe({ method: req.method, route: routeOf(req) }, String(res.statusCode), (performance.now() - started) / 1000);
    });
    next();
  };
}

/**
 * Route labels, by route: a route's pattern with those of the routers it is mounted under,
 * found once per route. Taking the mount point from the request path instead put whatever
 * a mount's own parameters matched (a workspace id under /console/w/:workspaceId/…, any
 * text at all) into the label, one series per value.
 */
const labels = new WeakMap<object, string>();

function routeOf(req: Request): string {
  const route: unknown = req.route;
  if (typeof route !== 'object' || route === null || !('path' in route)) return 'unmatched';
  let label = labels.get(route);
  if (label === undefined) {
    // Not found under the app's router (it cannot be, short of a route added elsewhere): its pattern alone.
    const mounts = mountsOf(req.app.router.stack, route) ?? [];
    label = [...mounts, patternText(route.path)].join('').replace(/(.)\/$/, '$1');
    labels.set(route, label);
  }
  return label;
}

/** The mount patterns of the routers, from `stack` down, that hold `route`; null when none does. */
function mountsOf(stack: readonly unknown[], route: object): string[] | null {
  for (const layer of stack) {
    if (typeof layer !== 'object' || layer === null) continue;
    if ('route' in layer && layer.route === route) return [];
    const inner = 'handle' in layer ? stackOf(layer.handle) : undefined;
    const found = inner ? mountsOf(inner, route) : null;
    if (found) return ['rawPath' in layer ? patternText(layer.rawPath) : '', ...found];
  }
  return null;
}

/** A router's layers; undefined for any other handler. */
function stackOf(handle: unknown): readonly unknown[] | undefined {
  if (typeof handle !== 'function' || !('stack' in handle) || !Array.isArray(handle.stack)) return undefined;
  return handle.stack as readonly unknown[];
}

/** A path pattern as written: `/` (a router used without a path) adds nothing, alternatives are joined by `|`. */
function patternText(path: unknown): string {
  if (Array.isArray(path)) return path.map(patternText).join('|');
  const text = String(path);
  return text === '/' ? '' : text;
}
