import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { BusHeaders } from './transport.js';
import { HEADER } from './headers.js';

/**
 * Operator calls (principal `operator`: the `crm` command line, which may grant any scope
 * and passes every administrator check) carry an HMAC under a key derived from CRM_SECRET,
 * which gateways never hold. It covers the subject, the call's deadline and a digest of the
 * whole request (context and input), so a forged, altered, re-aimed or stale message is
 * refused by the worker even when it comes from a process allowed on the bus.
 */

/** The longest a signed call stays acceptable: the bus deadline of the longest operator call (a bulk-import batch, 30 s) plus clock skew. */
export const OPERATOR_CALL_MAX_LIFETIME_MS = 45_000;

function mac(key: Buffer, subject: string, deadline: string, data: Uint8Array): Buffer {
  const digest = createHash('sha256').update(data).digest('hex');
  return createHmac('sha256', key).update(`${subject}\n${deadline}\n${digest}`).digest();
}

/** The header value for a request about to be sent. */
export function signOperatorCall(key: Buffer, subject: string, deadline: number, data: Uint8Array): string {
  return mac(key, subject, String(deadline), data).toString('base64url');
}

/** Why a message claiming the operator principal is refused, or null when it is genuine. */
export function operatorCallProblem(key: Buffer, subject: string, headers: BusHeaders, data: Uint8Array, now = Date.now()): string | null {
  const signature = headers[HEADER.operatorSignature];
  const deadline = headers[HEADER.deadline];
  if (!signature) return 'unsigned';
  if (!deadline || !/^\d{1,15}$/.test(deadline)) return 'no deadline';
  const until = Number(deadline);
  if (until < now) return 'expired';
  if (until - now > OPERATOR_CALL_MAX_LIFETIME_MS) return 'deadline too far ahead';
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, subject, deadline, data);
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : 'bad signature';
}
