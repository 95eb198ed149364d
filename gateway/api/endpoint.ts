import type { z } from 'zod';
import type { Scope } from '../../shared/auth/scopes.js';
import type { ErrorCode } from '../../shared/errors.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/**
 * One REST endpoint, declared once. The router mounts it (validation, scope check,
 * status) and the OpenAPI document is generated from it, so the two cannot drift.
 */
export interface Endpoint<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** OpenAPI form, e.g. /v1/contacts/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The scope the caller needs; null: any valid token. */
  scope: Scope | null;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status: 200 | 201;
  /** Error codes this endpoint can answer with, beyond those every endpoint can. */
  errors?: ErrorCode[];
  /** Accepts an Idempotency-Key header. */
  idempotent?: boolean;
  /** A 201 that names the new resource in a Location header. */
  location?: boolean;
}

export function defineEndpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(endpoint: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return endpoint;
}
