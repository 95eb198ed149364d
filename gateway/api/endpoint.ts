import type { z } from 'zod';
import type { Scope } from '../../shared/auth/scopes.js';
import { scopesOn, type Operation, type OperationInput, type OperationOutput } from '../../shared/bus/operation.js';
import type { ErrorCode } from '../../shared/errors.js';
import { REST_SCOPES } from './rest-scopes.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

type Out<S> = S extends z.ZodType ? z.output<S> : Record<never, never>;

/** What a request carried, as the endpoint's schemas read it (an absent part is empty). */
export interface EndpointRequest<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/**
 * One REST endpoint, declared once: the operation it calls and how the HTTP request
 * maps onto that operation's input. Its scope and idempotency are the operation's; the
 * one mounting function and the OpenAPI document both read this declaration.
 */
export interface EndpointSpec<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Op extends Operation = Operation,
> {
  method: HttpMethod;
  /** OpenAPI form, e.g. /v1/contacts/{id}. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  op: Op;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out altogether (every field of `body` is optional): read as `{}`. */
  bodyOptional?: boolean;
  /** The operation's input; by default params, query and body merged. */
  input?(request: EndpointRequest<P, Q, B>): OperationInput<Op>;
  /** The response body; by default the operation's output (a list operation's in the list envelope). */
  response?: z.ZodType;
  status: 200 | 201;
  /** Error codes this endpoint can answer with, beyond those every endpoint can. */
  errors?: ErrorCode[];
  /** A 201 that names the new resource: its path, set in the Location header. */
  location?(result: OperationOutput<Op>): string;
  /**
   * The record has a version, and If-Match is checked against it (on a write by the worker,
   * with the row locked; the operation takes expected_versions). 'tagged': the answer is the
   * record, and its ETag is sent; 'removed': the record is gone after, so there is no tag to send.
   */
  versioned?: 'tagged' | 'removed';
}

/** A declared endpoint with what it takes from its operation. */
export interface Endpoint<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Op extends Operation = Operation,
> extends EndpointSpec<P, Q, B, Op> {
  response: z.ZodType;
  /** The scopes of the operation that REST accepts (any one); null: any valid token. */
  scope: Scope | readonly Scope[] | null;
  /** Accepts an Idempotency-Key header. */
  idempotent: boolean;
}

/** Without an input mapping, params, query and body merged must be the operation's input. */
type InputMapping<P, Q, B, Op extends Operation> =
  Out<P> & Out<Q> & Out<B> extends OperationInput<Op> ? unknown : { input(request: EndpointRequest<P, Q, B>): OperationInput<Op> };

function restScopeOf(op: Operation): Scope | readonly Scope[] | null {
  const scopes = scopesOn(op, REST_SCOPES);
  if (scopes.length === 0) return null;
  return scopes.length === 1 ? (scopes[0] as Scope) : scopes;
}

export function defineEndpoint<
  Op extends Operation,
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: EndpointSpec<P, Q, B, Op> & InputMapping<P, Q, B, Op>): Endpoint<P, Q, B, Op> {
  return { ...spec, response: spec.response ?? spec.op.output, scope: restScopeOf(spec.op), idempotent: spec.op.idempotent };
}
