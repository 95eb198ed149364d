import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { scopesOf } from '../../shared/bus/operation.js';
import { PreconditionFailedError, ValidationError } from '../../shared/errors.js';
import { callWorkerRaw } from '../call-worker.js';
import type { GatewayDeps } from '../deps.js';
import { requireScope } from '../middlewares/require-scope.js';
import { idempotencyKeyOf, parseBody, parseQuery, parseWith } from '../validation.js';
import { ETAG_HEADER, entityTagOf } from '../../shared/contracts/entity-tags.js';
import { ifMatchOf, refuseFailedPreconditions } from './conditional-headers.js';
import type { Endpoint } from './endpoint.js';
import { responseBodyOf } from './response-body.js';

const NoQuery = z.strictObject({});
/** What an endpoint without a body takes: nothing, or {}; a field sent anyway is a 400, not ignored. */
const NoBody = z.strictObject({});
const JSON_TYPE = 'application/json; charset=utf-8';

/** Express path (relative to the /v1 router) from the OpenAPI path. */
export function expressPath(path: string): string {
  return path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1') || '/';
}

/**
 * Mounts an endpoint: scope check, validation of path, query (unknown parameters are a
 * 400) and body (fields sent where no body is declared too), the Idempotency-Key rule and
 * the refusal of preconditions,
 * then its operation over the bus. What the endpoint declares sets the rest: Location,
 * Idempotent-Replayed, the list envelope.
 */
export function mountEndpoint(router: Router, endpoint: Endpoint, { bus, publicUrl }: Pick<GatewayDeps, 'bus' | 'publicUrl'>): void {
  const responseBody = responseBodyOf(endpoint, publicUrl, bus);
  router[endpoint.method](expressPath(endpoint.path), requireScope(scopesOf({ scope: endpoint.scope })), async (req: Request, res: Response) => {
    const params = (endpoint.params ? parseWith(endpoint.params, req.params) : {}) as Record<string, unknown>;
    const query = parseQuery(endpoint.query ?? NoQuery, req.query) as Record<string, unknown>;
    const omitted = endpoint.bodyOptional === true && req.body === undefined;
    const schema = endpoint.body ?? (req.body === undefined ? undefined : NoBody);
    const body = (schema && !omitted ? parseBody(schema, req) : {}) as Record<string, unknown>;
    const versioned = endpoint.versioned !== undefined;
    const tagged = endpoint.versioned === 'tagged';
    refuseFailedPreconditions(req, versioned);
    const ifMatch = versioned ? ifMatchOf(req) : undefined;
    const read = endpoint.method === 'get';
    const idempotencyKey = idempotencyKeyOf(req);
    if (idempotencyKey !== undefined && !endpoint.idempotent) {
      throw new ValidationError(`Idempotency-Key is not accepted on ${endpoint.method.toUpperCase()} ${endpoint.path}.`, 'Idempotency-Key');
    }
    const merged = (endpoint.input ? endpoint.input({ params, query, body }) : { ...params, ...query, ...body }) as Record<string, unknown>;
    // A write's If-Match is checked by the worker, on the row it locks for the write: here it could race.
    const input = Array.isArray(ifMatch) && !read ? { ...merged, expected_versions: ifMatch } : merged;
    const reply = await callWorkerRaw(bus, req, endpoint.op, input, { idempotencyKey });
    // Parsed only where something here reads it (or replies are checked): otherwise the
    // worker's bytes are the response.
    const result = endpoint.location || tagged || bus.validateReplies ? bus.resultOf(endpoint.op, reply) : undefined;
    if (tagged) {
      const tag = entityTagOf(result as { updated_at: string });
      // A read changes nothing, so its If-Match can be checked on what it read.
      if (read && Array.isArray(ifMatch) && !ifMatch.some((version) => entityTagOf({ updated_at: version }) === tag)) {
        throw new PreconditionFailedError(`If-Match names none of this record's current version: its ETag is ${tag}.`);
      }
      res.set(ETAG_HEADER, tag);
    }
    if (reply.head.ok && reply.head.replayed) res.set('Idempotent-Replayed', 'true');
    if (endpoint.location) res.location(`${publicUrl()}${endpoint.location(result)}`);
    res.status(endpoint.status).type(JSON_TYPE).send(responseBody(reply, query, params));
  });
}
