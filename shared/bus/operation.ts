import type { z } from 'zod';
import type { Scope } from '../auth/scopes.js';
import { subjectPart } from './subject-part.js';

export const WORKER_NAMES = ['contacts', 'deals', 'schema', 'tokens', 'webhooks'] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

/**
 * One bus operation: one subject, one request schema, one reply schema, imported by
 * both the gateway and the worker that serves it.
 *
 * Its subject reads `<namespace>.<worker>.<resource>.<verb>`, e.g.
 * `crm.contacts.contacts.create`, `crm.schema.stages.archive`,
 * `crm.tokens.oauth.exchange-code`, `crm.tokens.sessions.sign-in`: who serves it, what it
 * acts on, what it does. Broadcast events use the same shape with the event in place of
 * the verb (../contracts/broadcasts.ts lists them all).
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly worker: WorkerName;
  /** What the operation acts on, in kebab-case: `contacts`, `api-tokens`, `oauth`. */
  readonly resource: string;
  /** What it does to the resource, in kebab-case: `list`, `sign-in`, `exchange-code`. */
  readonly verb: string;
  /** `<resource>.<verb>`: the subject without namespace and worker, for logs. */
  readonly name: string;
  /** Needs a workspace context (false only for e.g. authentication itself). */
  readonly scoped: boolean;
  /**
   * Only the command line may call it (bootstrap, key rotation, finding a workspace by
   * name): the call is signed like an operator call (shared/bus/operator-signature.ts), so
   * no other process on the bus can make it, even without a workspace context.
   */
  readonly operatorOnly: boolean;
  /**
   * Scopes that allow the operation (any one of them), checked by the gateway and again
   * by the worker. Several when two surfaces reach it, e.g. schema:write (REST) and
   * studio:write (the Studio tool server).
   */
  readonly scope: Scope | readonly Scope[] | null;
  /** Writes that honour an idempotency key (replayed for 24 hours). */
  readonly idempotent: boolean;
  /** Reads (touching a last-used time aside): safe for the gateway to send again. */
  readonly readOnly: boolean;
  /**
   * Changes or removes what exists (the update, archive, delete, revoke and remove kinds).
   * The rule for tool annotations: such a write is destructive, and the same input sent
   * again changes nothing more (idempotent); any other write creates something new.
   */
  readonly destructive: boolean;
  readonly input: I;
  readonly output: O;
}

export type OperationInput<Op extends Operation> = z.input<Op['input']>;
export type ParsedInput<Op extends Operation> = z.output<Op['input']>;
export type OperationOutput<Op extends Operation> = z.output<Op['output']>;

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(def: {
  worker: WorkerName;
  resource: string;
  verb: string;
  scoped?: boolean;
  operatorOnly?: boolean;
  scope?: Scope | readonly Scope[] | null;
  idempotent?: boolean;
  readOnly?: boolean;
  destructive?: boolean;
  input: I;
  output: O;
}): Operation<I, O> {
  const name = `${subjectPart('resource', def.resource)}.${subjectPart('verb', def.verb)}`;
  return { scoped: true, operatorOnly: false, scope: null, idempotent: false, readOnly: false, destructive: false, ...def, name };
}

export function subjectOf(namespace: string, op: Pick<Operation, 'worker' | 'resource' | 'verb'>): string {
  return `${namespace}.${op.worker}.${op.resource}.${op.verb}`;
}

export function queueOf(namespace: string, worker: WorkerName): string {
  return `${namespace}.workers.${worker}`;
}

/** The scopes that allow an operation; empty when any valid credential may call it. */
export function scopesOf(op: Pick<Operation, 'scope'>): readonly Scope[] {
  if (op.scope === null) return [];
  return typeof op.scope === 'string' ? [op.scope] : op.scope;
}

/**
 * The scopes that allow an operation on one surface (the REST API, a tool server): those
 * of its scopes the surface accepts. An operation that needs a scope the surface never
 * accepts cannot be offered there.
 */
export function scopesOn(op: Pick<Operation, 'worker' | 'name' | 'scope'>, accepted: readonly Scope[]): readonly Scope[] {
  const all = scopesOf(op);
  const on = all.filter((s) => accepted.includes(s));
  if (all.length > 0 && on.length === 0) throw new Error(`${op.worker}.${op.name} needs ${all.join(' or ')}, which this surface does not accept`);
  return on;
}
