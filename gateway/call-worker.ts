import type { Request } from 'express';
import type { BusClient, CallOptions, CallResult } from '../shared/bus/bus-client.js';
import type { Operation, OperationInput, OperationOutput } from '../shared/bus/operation.js';
import type { RawReply } from '../shared/bus/reply.js';
import { UnauthenticatedError } from '../shared/errors.js';

type RequestOptions = { idempotencyKey?: string; timeoutMs?: number };

/** Forwards one operation for an authenticated request: its workspace, principal and request id travel along. */
export function callWorker<Op extends Operation>(
  bus: BusClient,
  req: Request,
  op: Op,
  input: OperationInput<Op>,
  options: RequestOptions = {},
): Promise<CallResult<OperationOutput<Op>>> {
  return bus.call(op, input, callOptionsOf(req, options));
}

/** The same call, its reply left as the worker encoded it (for responses that pass it on). */
export function callWorkerRaw<Op extends Operation>(bus: BusClient, req: Request, op: Op, input: OperationInput<Op>, options: RequestOptions = {}): Promise<RawReply> {
  return bus.callRaw(op, input, callOptionsOf(req, options));
}

function callOptionsOf(req: Request, options: RequestOptions): CallOptions {
  if (!req.credential) throw new UnauthenticatedError();
  return { context: req.credential.context, requestId: req.requestId, ...options };
}
