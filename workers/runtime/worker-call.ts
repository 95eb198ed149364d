import type { Operation, OperationOutput, ParsedInput } from '../../shared/bus/operation.js';
import type { JetStreamAccess } from '../../shared/bus/nats-transport.js';
import type { BusTransport } from '../../shared/bus/transport.js';
import type { Config } from '../../shared/config.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import type { EntityManager, Orm } from '../../shared/db/orm.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import type { Logger } from '../../shared/logger.js';
import type { WorkerMessageMetrics } from '../../shared/metrics/worker-metrics.js';
import type { Secrets } from '../../shared/secrets.js';
import type { EventRecorder } from './events/event-recorder.js';

/** What every worker process provides to its handlers. */
export interface WorkerServices {
  orm: Orm;
  secrets: Secrets;
  /** The transport the worker serves on. */
  bus: BusTransport;
  busNamespace: string;
  /** Where broadcasts to the gateways go (NATS whenever it is configured, even for the command line). */
  broadcasts: Pick<BusTransport, 'publish'>;
  /** Counts and times messages (service processes; not the command line). */
  metrics?: WorkerMessageMetrics;
  /** Webhook settings (`WEBHOOK_*`): allowed addresses, retries, timeouts. */
  webhooks: Config['webhooks'];
  /** The event stream's settings (`EVENTS_*`). */
  events: Config['events'];
  /** Check each reply against the operation's output schema before it leaves (VALIDATE_REPLIES). */
  validateReplies?: boolean;
  /** JetStream, when the bus is NATS: the relay publishes the event stream and the webhooks worker consumes it. */
  jetStream?: JetStreamAccess;
  /** Copies of the rate-limit bucket (NATS_KV_REPLICAS), which webhooks workers create for the gateways. */
  natsKvReplicas?: number;
}

/** Work a worker does besides answering requests (e.g. sending webhooks); stopped on drain. */
export interface BackgroundTask {
  stop(): Promise<void>;
}

/** One request as a handler sees it. */
export interface WorkerCall<Op extends Operation> {
  input: ParsedInput<Op>;
  /** Present on workspace-scoped operations (the runtime refuses them without one). */
  context: CallContext | null;
  /**
   * Forked per request, when the handler first reads it (a read made with `db` alone does
   * without); bound to the caller's workspace when there is one. In a transaction, its `tx`.
   */
  em: EntityManager;
  /** Typed SQL bound to the caller's workspace (in the write's transaction when there is one); null without a workspace context. */
  db: WorkspaceSql | null;
  requestId: string;
  log: Logger;
  services: WorkerServices;
  /**
   * Stores the change's events in the write's transaction (writes with a workspace run in
   * one); null for reads and for calls without a workspace.
   */
  events: EventRecorder | null;
  /** Runs once the write has committed (broadcasts that must not announce an uncommitted change). */
  afterCommit(effect: () => void): void;
}

/** A workspace-scoped call: the runtime guarantees `context`. */
export interface ScopedCall<Op extends Operation> extends WorkerCall<Op> {
  context: CallContext;
  db: WorkspaceSql;
  events: EventRecorder;
}

export type OperationHandler<Op extends Operation> = (call: ScopedCall<Op>) => Promise<OperationOutput<Op>>;
export type UnscopedHandler<Op extends Operation> = (call: WorkerCall<Op>) => Promise<OperationOutput<Op>>;

export interface HandlerBinding {
  op: Operation;
  handler: (call: WorkerCall<Operation>) => Promise<unknown>;
  /**
   * The handler writes its data and its event in one statement (EventRecorder.recordWithInsert),
   * so the runtime opens no transaction around it (one with an Idempotency-Key still runs in one).
   * A function decides per input: a write holds locks past one statement only for some inputs.
   */
  singleStatement?: boolean | ((input: unknown) => boolean);
  /**
   * This process serves the calls of one request id one at a time, in the order they
   * arrived (calls of other request ids do not wait): the batches of one bulk import, sent
   * several at a time, are written in the order they were sent, so with one contacts worker
   * the list shows the file's order. The wait is not in the call's duration metric.
   */
  inArrivalOrder?: boolean;
}

/** Pairs an operation with the function that serves it. */
export function handle<Op extends Operation>(
  op: Op,
  handler: OperationHandler<Op> | UnscopedHandler<Op>,
  options: { singleStatement?: boolean | ((input: ParsedInput<Op>) => boolean); inArrivalOrder?: boolean } = {},
): HandlerBinding {
  return { op, handler: handler as HandlerBinding['handler'], ...(options as Pick<HandlerBinding, 'singleStatement' | 'inArrivalOrder'>) };
}

export interface WorkerDefinition {
  name: Operation['worker'];
  handlers: HandlerBinding[];
  /** Periodic upkeep, e.g. purging expired idempotency keys. */
  maintenance?: { everyMs: number; run: (services: WorkerServices, log: Logger) => Promise<void> };
  /** Started with the worker in service processes (`crm worker`, `crm start`), not in the command line's. */
  background?: (services: WorkerServices, log: Logger) => BackgroundTask;
}
