import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import { ValidationError, validationErrorFrom } from '../../shared/errors.js';
import { requireScope } from '../middlewares/require-scope.js';
import { idempotencyKeyOf, parseBody } from '../validation.js';
import type { Endpoint } from './endpoint.js';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type ParamsOf<E> = E extends Endpoint<infer P, infer _Q, infer _B, infer _R> ? Out<P> : never;
type QueryOf<E> = E extends Endpoint<infer _P, infer Q, infer _B, infer _R> ? Out<Q> : never;
type BodyOf<E> = E extends Endpoint<infer _P, infer _Q, infer B, infer _R> ? Out<B> : never;

export interface EndpointCall<E extends Endpoint> {
  params: ParamsOf<E>;
  query: QueryOf<E>;
  body: BodyOf<E>;
  idempotencyKey: string | undefined;
  req: Request;
  res: Response;
}

const NoQuery = z.strictObject({});

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  return parsed.data;
}

/** Express path (relative to the /v1 router) from the OpenAPI path. */
export function expressPath(path: string): string {
  return path.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1') || '/';
}

/**
 * Mounts an endpoint: scope check, validation of path, query (unknown parameters are a
 * 400) and body, the Idempotency-Key rule, then the handler; its result is the body.
 */
export function mountEndpoint<E extends Endpoint>(
  router: Router,
  endpoint: E,
  handler: (call: EndpointCall<E>) => Promise<z.input<E['response']>>,
): void {
  const guards = endpoint.scope ? [requireScope(endpoint.scope)] : [];
  router[endpoint.method](expressPath(endpoint.path), ...guards, async (req: Request, res: Response) => {
    const params = (endpoint.params ? parse(endpoint.params, req.params) : undefined) as ParamsOf<E>;
    const query = parse(endpoint.query ?? NoQuery, req.query) as QueryOf<E>;
    const body = (endpoint.body ? parseBody(endpoint.body, req) : undefined) as BodyOf<E>;
    const idempotencyKey = idempotencyKeyOf(req);
    if (idempotencyKey !== undefined && !endpoint.idempotent) {
      throw new ValidationError(`Idempotency-Key is not accepted on ${endpoint.method.toUpperCase()} ${endpoint.path}.`, 'Idempotency-Key');
    }
    const result = await handler({ params, query, body, idempotencyKey, req, res });
    res.status(endpoint.status).json(result);
  });
}
