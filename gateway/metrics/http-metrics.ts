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
 * The matched route's pattern with its mount point. `req.baseUrl` is already reset when
 * an error travelled out of a router, so the mount point is taken from the request path:
 * whatever precedes the segments the pattern matched.
 */
function routeOf(req: Request): string {
  const route: unknown = req.route;
  if (typeof route !== 'object' || route === null || !('path' in route) || typeof route.path !== 'string') return 'unmatched';
  const pattern = route.path;
  const segments = req.originalUrl.split('?')[0]?.split('/').filter(Boolean) ?? [];
  const matched = pattern.split('/').filter(Boolean).length;
  const mount = segments.slice(0, Math.max(0, segments.length - matched)).join('/');
  return `${mount ? `/${mount}` : ''}${pattern}`;
}
