import type { Operation, OperationOutput, ParsedInput } from '../../shared/bus/operation.js';
import type { BusTransport } from '../../shared/bus/transport.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager, Orm } from '../../shared/db/orm.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkerMessageMetrics } from '../../shared/metrics/worker-metrics.js';
import type { Secrets } from '../../shared/secrets.js';

/** What every worker process provides to its handlers. */
export interface WorkerServices {
  orm: Orm;
  secrets: Secrets;
  /** The transport the worker serves on. */
  bus: BusTransport;
  busNamespace: string;
  /** Where broadcast events go (NATS whenever it is configured, even for the command line). */
  events: Pick<BusTransport, 'publish'>;
  /** Counts and times messages (service processes; not the command line). */
  metrics?: WorkerMessageMetrics;
}

/** One request as a handler sees it. */
export interface WorkerCall<Op extends Operation> {
  input: ParsedInput<Op>;
  /** Present on workspace-scoped operations (the runtime refuses them without one). */
  context: CallContext | null;
  /** Forked per request; bound to the caller's workspace when there is one. */
  em: EntityManager;
  /** Typed SQL bound to the caller's workspace, on `em`; null without a workspace context. */
  db: WorkspaceSql | null;
  requestId: string;
  log: Logger;
  services: WorkerServices;
}

/** A workspace-scoped call: the runtime guarantees `context`. */
export interface ScopedCall<Op extends Operation> extends WorkerCall<Op> {
  context: CallContext;
  db: WorkspaceSql;
}

export type OperationHandler<Op extends Operation> = (call: ScopedCall<Op>) => Promise<OperationOutput<Op>>;
export type UnscopedHandler<Op extends Operation> = (call: WorkerCall<Op>) => Promise<OperationOutput<Op>>;

export interface HandlerBinding {
  op: Operation;
  handler: (call: WorkerCall<Operation>) => Promise<unknown>;
}

/** Pairs an operation with the function that serves it. */
export function handle<Op extends Operation>(op: Op, handler: OperationHandler<Op> | UnscopedHandler<Op>): HandlerBinding {
  return { op, handler: handler as HandlerBinding['handler'] };
}

export interface WorkerDefinition {
  name: Operation['worker'];
  handlers: HandlerBinding[];
  /** Periodic upkeep, e.g. purging expired idempotency keys. */
  maintenance?: { everyMs: number; run: (services: WorkerServices, log: Logger) => Promise<void> };
}
