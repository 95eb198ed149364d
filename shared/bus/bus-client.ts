import type { CallContext } from '../contracts/call-context.js';
import { CrmError, InternalError, UnavailableError, validationErrorFrom } from '../errors.js';
import { decode, encode } from './codec.js';
import { ReplyEnvelope, type RequestEnvelope } from './envelope.js';
import { HEADER } from './headers.js';
import { subjectOf, type Operation, type OperationInput, type OperationOutput } from './operation.js';
import { BusDisconnectedError, BusTimeoutError, NoRespondersError, type BusHeaders, type BusTransport } from './transport.js';

export interface CallOptions {
  context: CallContext | null;
  requestId: string;
  timeoutMs?: number;
  idempotencyKey?: string;
}

export interface CallResult<T> {
  result: T;
  /** True when the worker answered from the idempotency store instead of doing the work again. */
  replayed: boolean;
}

/** The typed side of the bus: validates on the way out and on the way back. */
export class BusClient {
  constructor(
    readonly transport: BusTransport,
    readonly namespace: string,
    readonly defaultTimeoutMs: number,
  ) {}

  async call<Op extends Operation>(op: Op, input: OperationInput<Op>, options: CallOptions): Promise<CallResult<OperationOutput<Op>>> {
    const parsed = op.input.safeParse(input);
    if (!parsed.success) throw validationErrorFrom(parsed.error);

    const subject = subjectOf(this.namespace, op);
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const headers: BusHeaders = {
      [HEADER.requestId]: options.requestId,
      [HEADER.deadline]: String(Date.now() + timeoutMs),
    };
    if (options.idempotencyKey !== undefined) headers[HEADER.idempotencyKey] = options.idempotencyKey;
    const envelope: RequestEnvelope = { context: options.context, input: parsed.data };

    let replyData: Uint8Array;
    try {
      replyData = (await this.transport.request(subject, encode(envelope), { headers, timeoutMs })).data;
    } catch (error) {
      throw toUnavailable(error, op.worker);
    }

    const reply = ReplyEnvelope.safeParse(decode(replyData));
    if (!reply.success) throw new InternalError(`Malformed reply on ${subject}`);
    if (!reply.data.ok) throw CrmError.fromPayload(reply.data.error);
    const result = op.output.safeParse(reply.data.result);
    if (!result.success) throw new InternalError(`Reply on ${subject} does not match its contract: ${result.error.message}`);
    return { result: result.data as OperationOutput<Op>, replayed: reply.data.replayed === true };
  }
}

function toUnavailable(error: unknown, worker: string): Error {
  if (error instanceof NoRespondersError) return new UnavailableError(`No ${worker} worker is available. Retry shortly.`, 1);
  if (error instanceof BusTimeoutError) return new UnavailableError(`The ${worker} worker did not answer in time. Retry shortly.`, 1);
  if (error instanceof BusDisconnectedError) return new UnavailableError('The message bus is reconnecting. Retry shortly.', 1);
  return error instanceof Error ? error : new Error(String(error));
}
