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
  if (typeof route !== 'object' || route === null || !('path' in route)) return routeItWouldHaveReached(req) ?? 'unmatched';
  let label = labels.get(route);
  if (label === undefined) {
    // Not found under the app's router (it cannot be, short of a route added elsewhere): its pattern alone.
    const mounts = mountsOf(req.app.router.stack, route) ?? [];
    label = [...mounts, patternText(route.path)].join('').replace(/(.)\/$/, '$1');
    labels.set(route, label);
  }
  return label;
}

/**
 * For a request answered before routing picked its route (a 401 of the token check, a 429 of
 * the rate limit): the pattern of the route it was on its way to, found as the router would
 * find it. Labelled `unmatched`, an operator could not tell which endpoint was being refused.
 * Still only patterns, so a flood of made-up paths adds no series.
 */
function routeItWouldHaveReached(req: Request): string | null {
  // Prefixed, not resolved against a base: `//host/v1/contacts` is a path to the router, not a host.
  const path = URL.parse(`http://x${req.originalUrl}`)?.pathname;
  if (path === undefined) return null;
  const parts = patternsOnTheWay(req.app.router.stack, path, req.method);
  return parts ? parts.join('').replace(/(.)\/$/, '$1') : null;
}

/** A layer of express's router, as far as matching goes. */
interface MatchingLayer {
  match(path: string): { path: string } | false;
  rawPath?: unknown;
  route?: { path: unknown; _handlesMethod(method: string): boolean };
  handle?: unknown;
}

function isMatchingLayer(layer: unknown): layer is MatchingLayer {
  return typeof layer === 'object' && layer !== null && 'match' in layer && typeof layer.match === 'function';
}

/** The patterns of the routers and the route, from `stack` down, that `path` reaches; null when it reaches none. */
function patternsOnTheWay(stack: readonly unknown[], path: string, method: string): string[] | null {
  for (const layer of stack) {
    if (!isMatchingLayer(layer)) continue;
    let matched: { path: string } | false;
    try {
      matched = layer.match(path);
    } catch {
      // A path the router cannot decode reaches no route either.
      return null;
    }
    if (!matched) continue;
    if (layer.route) {
      if (layer.route._handlesMethod(method)) return [patternText(layer.route.path)];
      continue;
    }
    const inner = stackOf(layer.handle);
    if (!inner) continue;
    const rest = path.slice(matched.path.length);
    const found = patternsOnTheWay(inner, rest.startsWith('/') ? rest : `/${rest}`, method);
    if (found) return [patternText(layer.rawPath), ...found];
  }
  return null;
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
