import type { Router } from 'express';
import { MethodNotAllowedError } from '../../shared/errors.js';
import type { Endpoint } from './endpoint.js';
import { expressPath } from './mount-endpoint.js';

/**
 * Mounted after the endpoints: a path the API knows, asked with a method it does not take,
 * is a 405 whose Allow lists the methods it does (HEAD wherever GET is: express answers it),
 * instead of a 404 that suggests the path is wrong.
 */
export function mountMethodNotAllowed(router: Router, endpoints: readonly Endpoint[]): void {
  const allowed = new Map<string, Set<string>>();
  for (const e of endpoints) {
    const methods = allowed.get(e.path) ?? new Set<string>();
    methods.add(e.method.toUpperCase());
    if (e.method === 'get') methods.add('HEAD');
    allowed.set(e.path, methods);
  }
  for (const [path, methods] of allowed) {
    const allow = [...methods].join(', ');
    router.all(expressPath(path), (req, res, next) => {
      res.set('Allow', allow);
      next(new MethodNotAllowedError(`${req.method} is not allowed on ${req.originalUrl}; this path takes ${allow}.`));
    });
  }
}
