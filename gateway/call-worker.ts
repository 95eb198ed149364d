import type { Request } from 'express';
import type { BusClient, CallResult } from '../shared/bus/bus-client.js';
import type { Operation, OperationInput, OperationOutput } from '../shared/bus/operation.js';
import { UnauthenticatedError } from '../shared/errors.js';

/** Forwards one operation for an authenticated request: its workspace, principal and request id travel along. */
export function callWorker<Op extends Operation>(
  bus: BusClient,
  req: Request,
  op: Op,
  input: OperationInput<Op>,
  options: { idempotencyKey?: string } = {},
): Promise<CallResult<OperationOutput<Op>>> {
  if (!req.credential) throw new UnauthenticatedError();
  return bus.call(op, input, { context: req.credential.context, requestId: req.requestId, ...options });
}
