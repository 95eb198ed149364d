import type { z } from 'zod';
import type { Scope } from '../auth/scopes.js';

export const WORKER_NAMES = ['contacts', 'deals', 'schema', 'tokens'] as const;
export type WorkerName = (typeof WORKER_NAMES)[number];

/**
 * One bus operation: one subject, one request schema, one reply schema, imported by
 * both the gateway and the worker that serves it.
 */
export interface Operation<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly worker: WorkerName;
  readonly name: string;
  /** Needs a workspace context (false only for e.g. authentication itself). */
  readonly scoped: boolean;
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
  readonly input: I;
  readonly output: O;
}

export type OperationInput<Op extends Operation> = z.input<Op['input']>;
export type ParsedInput<Op extends Operation> = z.output<Op['input']>;
export type OperationOutput<Op extends Operation> = z.output<Op['output']>;

export function defineOperation<I extends z.ZodType, O extends z.ZodType>(def: {
  worker: WorkerName;
  name: string;
  scoped?: boolean;
  scope?: Scope | readonly Scope[] | null;
  idempotent?: boolean;
  readOnly?: boolean;
  input: I;
  output: O;
}): Operation<I, O> {
  return { scoped: true, scope: null, idempotent: false, readOnly: false, ...def };
}

export function subjectOf(namespace: string, op: Pick<Operation, 'worker' | 'name'>): string {
  return `${namespace}.${op.worker}.${op.name}`;
}

export function queueOf(namespace: string, worker: WorkerName): string {
  return `${namespace}.workers.${worker}`;
}

/** The scopes that allow an operation; empty when any valid credential may call it. */
export function scopesOf(op: Pick<Operation, 'scope'>): readonly Scope[] {
  if (op.scope === null) return [];
  return typeof op.scope === 'string' ? [op.scope] : op.scope;
}
