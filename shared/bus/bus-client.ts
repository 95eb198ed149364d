import type { CallContext } from '../contracts/call-context.js';
import { CrmError, InternalError, UnavailableError, validationErrorFrom } from '../errors.js';
import { encode } from './codec.js';
import type { RequestEnvelope } from './envelope.js';
import { HEADER } from './headers.js';
import { signOperatorCall } from './operator-signature.js';
import { subjectOf, type Operation, type OperationInput, type OperationOutput } from './operation.js';
import { resultOf, splitReply, type RawReply } from './reply.js';
import { BusDisconnectedError, BusTimeoutError, NoRespondersError, type BusHeaders, type BusTransport } from './transport.js';

export interface CallOptions {
  context: CallContext | null;
  requestId: string;
  timeoutMs?: number;
  idempotencyKey?: string;
  /** False: one attempt only, e.g. for a readiness probe that wants the truth right now. */
  retry?: boolean;
}

/** What a bus call ended with: `ok`, an error code from the worker, or a transport failure (`timeout`, `no_responders`, `disconnected`). */
export type CallOutcome = string;

/** Sees every bus call the client makes (metrics); the bus itself stays free of a metrics library. */
export interface BusObserver {
  callDone(subject: string, outcome: CallOutcome, seconds: number): void;
  retried(subject: string, reason: CallOutcome): void;
}

/**
 * Pauses before each retry of a safe call. Their sum (1.55 s) bounds how long a caller
 * waits for a worker to come back, e.g. during a rolling restart or a NATS reconnect.
 */
const RETRY_PAUSES_MS = [50, 100, 200, 400, 800];
/** No retry that would leave less than this before the deadline. */
const MIN_ATTEMPT_MS = 100;

export interface CallResult<T> {
  result: T;
  /** True when the worker answered from the idempotency store instead of doing the work again. */
  replayed: boolean;
}

export interface BusClientOptions {
  observer?: BusObserver;
  /** Only the command line holds it (from CRM_SECRET): without it, calls as the operator are refused here. */
  operatorCallKey?: Buffer;
  /**
   * Check every reply against its operation's output schema (VALIDATE_REPLIES). Workers
   * check their own replies when it is on, so this is for tests and development: a
   * production gateway trusts what its authenticated workers send.
   */
  validateReplies?: boolean;
}

/**
 * The typed side of the bus. Input is validated where it enters (the gateway, for a
 * client's request) and where it is trusted (the worker). `call` checks its input against
 * the operation before sending it, for the callers that take a client's values as they
 * came (console forms and links, sign-in, consent, tool resources); `callRaw` carries
 * what its callers (REST endpoints, tool arguments) have validated with their own schemas.
 */
export class BusClient {
  private readonly observer?: BusObserver;
  private readonly operatorCallKey?: Buffer;
  readonly validateReplies: boolean;

  constructor(
    readonly transport: BusTransport,
    readonly namespace: string,
    readonly defaultTimeoutMs: number,
    options: BusClientOptions = {},
  ) {
    this.observer = options.observer;
    this.operatorCallKey = options.operatorCallKey;
    this.validateReplies = options.validateReplies ?? false;
  }

  /**
   * One call, its input checked first (a ValidationError, nothing sent) and its result
   * parsed (and checked, with validateReplies). The input travels as given: the worker
   * parses it itself.
   */
  async call<Op extends Operation>(op: Op, input: OperationInput<Op>, options: CallOptions): Promise<CallResult<OperationOutput<Op>>> {
    const checked = op.input.safeParse(input);
    if (!checked.success) throw validationErrorFrom(checked.error);
    const reply = await this.callRaw(op, input, options);
    return { result: this.resultOf(op, reply), replayed: reply.head.ok && reply.head.replayed === true };
  }

  /** A successful reply's result, from its bytes. */
  resultOf<Op extends Operation>(op: Op, reply: RawReply): OperationOutput<Op> {
    const result = resultOf(reply);
    if (!this.validateReplies) return result as OperationOutput<Op>;
    const checked = op.output.safeParse(result);
    if (!checked.success) throw new InternalError(`Reply on ${subjectOf(this.namespace, op)} does not match its contract: ${checked.error.message}`);
    return checked.data as OperationOutput<Op>;
  }

  /**
   * One request within one deadline. Reads, and writes that carry an idempotency key,
   * are sent again when no worker took them or a worker reported the database briefly
   * unavailable; any other write is sent once, because a second copy could apply twice.
   */
  async callRaw<Op extends Operation>(op: Op, input: OperationInput<Op>, options: CallOptions): Promise<RawReply> {
    const subject = subjectOf(this.namespace, op);
    const deadline = Date.now() + (options.timeoutMs ?? this.defaultTimeoutMs);
    const headers: BusHeaders = { [HEADER.requestId]: options.requestId, [HEADER.deadline]: String(deadline) };
    if (options.idempotencyKey !== undefined) headers[HEADER.idempotencyKey] = options.idempotencyKey;
    const data = encode({ context: options.context, input } satisfies RequestEnvelope);
    if (op.operatorOnly || options.context?.principal.type === 'operator') {
      if (!this.operatorCallKey) throw new InternalError('Only the command line may call as the operator.');
      headers[HEADER.operatorSignature] = signOperatorCall(this.operatorCallKey, subject, deadline, data);
    }
    const safe = options.retry !== false && (op.readOnly || (op.idempotent && options.idempotencyKey !== undefined));

    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      const outcome = await this.attempt(subject, data, headers, deadline - Date.now());
      const name = outcomeName(outcome);
      const pause = RETRY_PAUSES_MS[attempt];
      const retryable = safe && pause !== undefined && deadline - Date.now() - pause >= MIN_ATTEMPT_MS && TRANSIENT.has(name);
      if (!retryable) {
        this.observer?.callDone(subject, name, (performance.now() - started) / 1000);
        return replyOf(op, outcome);
      }
      this.observer?.retried(subject, name);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  private async attempt(subject: string, data: Uint8Array, headers: BusHeaders, timeoutMs: number): Promise<Attempt> {
    try {
      const reply = splitReply((await this.transport.request(subject, data, { headers, timeoutMs })).data);
      return reply ? { reply } : { failure: new InternalError(`Malformed reply on ${subject}`) };
    } catch (error) {
      return { failure: error instanceof Error ? error : new Error(String(error)) };
    }
  }
}

type Attempt = { reply: RawReply } | { failure: Error };

/** Outcomes where no worker did the work, or one reported the database briefly gone: safe calls go again. */
const TRANSIENT: ReadonlySet<CallOutcome> = new Set(['no_responders', 'disconnected', 'unavailable']);

function outcomeName(outcome: Attempt): CallOutcome {
  if ('reply' in outcome) return outcome.reply.head.ok ? 'ok' : outcome.reply.head.error.code;
  if (outcome.failure instanceof NoRespondersError) return 'no_responders';
  if (outcome.failure instanceof BusTimeoutError) return 'timeout';
  if (outcome.failure instanceof BusDisconnectedError) return 'disconnected';
  return 'internal_error';
}

function replyOf(op: Operation, outcome: Attempt): RawReply {
  if ('failure' in outcome) throw toUnavailable(outcome.failure, op.worker);
  if (!outcome.reply.head.ok) throw CrmError.fromPayload(outcome.reply.head.error);
  return outcome.reply;
}

function toUnavailable(error: Error, worker: string): Error {
  if (error instanceof NoRespondersError) return new UnavailableError(`No ${worker} worker is available. Retry shortly.`, 1);
  if (error instanceof BusTimeoutError) return new UnavailableError(`The ${worker} worker did not answer in time. Retry shortly.`, 1);
  if (error instanceof BusDisconnectedError) return new UnavailableError('The message bus is reconnecting. Retry shortly.', 1);
  return error;
}
