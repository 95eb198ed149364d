import { z } from 'zod';
import { Scope } from './auth/scopes.js';
import { sizeInWords, typeInWords } from './zod-issue-words.js';

/**
 * Domain errors. Workers throw them, the bus carries them as an {@link ErrorPayload},
 * and the gateway's one error handler maps each code to an HTTP status.
 */
export const ERROR_CODES = [
  'validation_failed',
  'invalid_json',
  'invalid_cursor',
  'unauthenticated',
  'unknown_email',
  'wrong_password',
  'invalid_grant',
  'invalid_scope',
  'missing_scope',
  'forbidden',
  'not_found',
  'phone_taken',
  'conflict',
  'idempotency_key_reused',
  'payload_too_large',
  'unsupported_media_type',
  'method_not_allowed',
  'not_acceptable',
  'precondition_failed',
  'rate_limited',
  'unavailable',
  'internal',
] as const;

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** What travels on the bus (and, with `type` and `request_id` added, in an HTTP error body). */
/**
 * Which of a code's causes it was, where a surface answers them differently: each surface tells
 * its own next step from it (a console button, a tool an agent lacks), not from the message's
 * words, which name what the user wrote.
 */
export const ErrorReason = z
  .enum(['stage_archived', 'email_taken'])
  .describe(
    'Which cause, where a code has several: stage_archived, a deal moved into an archived stage (restore it with archived: false on the stage, or choose an active stage); email_taken, create_contact given an e-mail another contact has',
  );
export type ErrorReason = z.infer<typeof ErrorReason>;

export const ErrorPayload = z.object({
  code: ErrorCode,
  message: z.string(),
  param: z.string().optional(),
  required_scope: Scope.optional(),
  existing_id: z.string().optional(),
  retry_after: z.number().int().positive().optional(),
  reason: ErrorReason.optional(),
});
export type ErrorPayload = z.infer<typeof ErrorPayload>;

type ErrorDetails = Omit<ErrorPayload, 'code' | 'message'>;

export class CrmError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  toPayload(): ErrorPayload {
    return { code: this.code, message: this.message, ...this.details };
  }

  static fromPayload(payload: ErrorPayload): CrmError {
    const { code, message, ...details } = payload;
    return new CrmError(code, message, details);
  }
}

export class ValidationError extends CrmError {
  constructor(message: string, param?: string) {
    super('validation_failed', message, param === undefined ? {} : { param });
  }
}

export class InvalidJsonError extends CrmError {
  constructor(message = 'The request body is not valid JSON.') {
    super('invalid_json', message);
  }
}

export class PayloadTooLargeError extends CrmError {
  constructor(message = 'The request body is too large.') {
    super('payload_too_large', message);
  }
}

export class UnsupportedMediaTypeError extends CrmError {
  constructor(message: string) {
    super('unsupported_media_type', message);
  }
}

export class InvalidCursorError extends CrmError {
  constructor(message = 'The cursor is not valid for this list: pass on the cursor of the previous page exactly as it was given.') {
    super('invalid_cursor', message, { param: 'cursor' });
  }
}

export class UnauthenticatedError extends CrmError {
  constructor(message = 'A valid bearer token is required.') {
    super('unauthenticated', message);
  }
}

/** Sign-in: no account has this e-mail address. */
export class UnknownEmailError extends CrmError {
  constructor(email: string) {
    super('unknown_email', `No account uses the e-mail address ${email}.`, { param: 'email' });
  }
}

export class WrongPasswordError extends CrmError {
  constructor(message: string, param: string) {
    super('wrong_password', message, { param });
  }
}

/** OAuth: a code or refresh token that is unknown, expired, already used, or not this client's. */
export class InvalidGrantError extends CrmError {
  constructor(message: string) {
    super('invalid_grant', message);
  }
}

/** OAuth: scopes the grant does not hold (RFC 6749 §5.2); the refresh token itself still works. */
export class InvalidScopeError extends CrmError {
  constructor(message: string) {
    super('invalid_scope', message);
  }
}

export class MissingScopeError extends CrmError {
  constructor(scope: Scope, message = `This operation needs the scope ${scope}, which the credential does not hold.`) {
    super('missing_scope', message, { required_scope: scope });
  }
}

export class ForbiddenError extends CrmError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class NotFoundError extends CrmError {
  /** `next`: a sentence after the first that helps to correct the call (the valid names, say). */
  constructor(what: string, id?: string, param?: string, next?: string) {
    const message = id === undefined ? `No such ${what}.` : `No such ${what}: ${id}.`;
    super('not_found', next === undefined ? message : `${message} ${next}`, param === undefined ? {} : { param });
  }
}

/** No route for this method and path. */
export class RouteNotFoundError extends CrmError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class MethodNotAllowedError extends CrmError {
  constructor(message: string) {
    super('method_not_allowed', message);
  }
}

/** The Accept header allows no JSON, the only thing the API answers with. */
export class NotAcceptableError extends CrmError {
  constructor(message: string) {
    super('not_acceptable', message);
  }
}

/** A precondition header (If-Match, …) that does not hold: a version the record is no longer at, or a tag or date the resource does not have. */
export class PreconditionFailedError extends CrmError {
  constructor(message: string) {
    super('precondition_failed', message);
  }
}

export class PhoneTakenError extends CrmError {
  /**
   * `existingId` is left out when the caller may not see that contact (an `owned` member):
   * then the message claims no contact and repeats no number, only that this one cannot be
   * used and whom to ask. The refusal itself cannot be hidden (phones are unique per workspace).
   */
  constructor(phone: string, existingId?: string) {
    super(
      'phone_taken',
      existingId
        ? `A contact with phone ${phone} already exists in this workspace: ${existingId}.`
        : 'This phone number cannot be used for a contact of yours. A member who sees all contacts (an administrator) can tell you why.',
      existingId ? { param: 'phone', existing_id: existingId } : { param: 'phone' },
    );
  }
}

export class ConflictError extends CrmError {
  /** `existingId`: the record that holds what the request wanted (a custom field's key), to use instead. */
  constructor(message: string, param?: string, existingId?: string, reason?: ErrorReason) {
    super('conflict', message, {
      ...(param === undefined ? {} : { param }),
      ...(existingId === undefined ? {} : { existing_id: existingId }),
      ...(reason === undefined ? {} : { reason }),
    });
  }
}

export class EmailTakenError extends ConflictError {
  /**
   * Only where the caller asked for e-mail addresses to be unique (create_contact). As with
   * {@link PhoneTakenError}, `existingId` is left out when the caller may not see that contact.
   */
  constructor(email: string, existingId?: string) {
    super(
      existingId
        ? `A contact with e-mail ${email} already exists in this workspace: ${existingId}.`
        : 'A contact with this e-mail address already exists in this workspace; it is not one of the contacts you may see.',
      'email',
      existingId,
      'email_taken',
    );
  }
}

export class IdempotencyKeyReusedError extends CrmError {
  constructor() {
    super(
      'idempotency_key_reused',
      // Worded for both the REST header and the tools' idempotency_key argument.
      'This idempotency key was already used in the last 24 hours for a different request (another operation, other arguments or another caller). Use a new key for a new request.',
    );
  }
}

export class UnavailableError extends CrmError {
  /** When to try again, unless the error says otherwise: Retry-After of every 503 that has no better figure. */
  static readonly RETRY_AFTER_SECONDS = 1;

  constructor(message = 'The service could not answer in time. Retry shortly.', retryAfterSeconds = UnavailableError.RETRY_AFTER_SECONDS) {
    super('unavailable', message, { retry_after: retryAfterSeconds });
  }
}

export class RateLimitedError extends CrmError {
  constructor(retryAfterSeconds: number) {
    super('rate_limited', `Too many requests. Retry after ${retryAfterSeconds} seconds.`, { retry_after: retryAfterSeconds });
  }
}

export class InternalError extends CrmError {
  /** What callers are told; an internal error with this message was logged where it happened. */
  static readonly GENERIC_MESSAGE = 'An internal error occurred. It has been logged with the request id.';

  constructor(message = InternalError.GENERIC_MESSAGE) {
    super('internal', message);
  }
}

/** Turns a zod failure into a 400 that names the first offending parameter, saying what is wrong in words. */
export function validationErrorFrom(error: z.ZodError, prefix?: string): ValidationError {
  const issue = error.issues[0];
  if (!issue) return new ValidationError('The request is not valid.');
  return issueError(issue, prefix);
}

/**
 * Every offending parameter of a zod failure, each with its first issue, in the order zod met
 * them: for a report that lists all the problems of an input at once (an import row).
 */
export function validationErrorsFrom(error: z.ZodError, prefix?: string): ValidationError[] {
  const byParam = new Map<string | undefined, ValidationError>();
  for (const issue of error.issues) {
    const refusal = issueError(issue, prefix);
    if (!byParam.has(refusal.details.param)) byParam.set(refusal.details.param, refusal);
  }
  return byParam.size > 0 ? [...byParam.values()] : [new ValidationError('The request is not valid.')];
}

function issueError(issue: z.core.$ZodIssue, prefix?: string): ValidationError {
  let pathParts = issue.path.map(String);
  let message = issue.message;
  // A field left out: said as such, where zod says "Invalid input: expected string, received undefined".
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) message = 'is required';
  // null where a field has no "none" (a first name, a phone): said as such, not as a type puzzle.
  if (issue.code === 'invalid_type' && /received null$/.test(issue.message)) message = `must not be null: expected ${issue.expected === 'string' ? 'text' : issue.expected}`;
  // 1e400 is valid JSON that reads as Infinity: "expected number, received Infinity" blames the type.
  if (issue.code === 'invalid_type' && /received -?Infinity$/.test(issue.message)) message = 'is too large to be a number that can be kept exactly';
  // "Invalid option: expected one of \"active\"|\"archived\"": the choices in plain words.
  if (issue.code === 'invalid_value' && issue.values.length > 1 && issue.message.startsWith('Invalid option')) message = `must be one of: ${issue.values.map(String).join(', ')}`;
  // zod's own "Too big: expected string to have <=64 characters" (a schema's own message is kept).
  if ((issue.code === 'too_big' || issue.code === 'too_small') && /^Too (big|small):/.test(issue.message)) message = sizeInWords(issue) ?? message;
  // zod's own "Invalid input: expected number, received string", for the types a JSON client sends.
  if (issue.code === 'invalid_type' && message === issue.message && issue.message.startsWith('Invalid input: expected')) message = typeInWords(issue.expected, issue.message) ?? message;
  if (issue.code === 'unrecognized_keys') {
    pathParts = [...pathParts, issue.keys[0] ?? ''];
    message = `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
  }
  const param = [prefix, ...pathParts].filter(Boolean).join('.') || undefined;
  const text = issue.code === 'unrecognized_keys' ? message : param ? `${param}: ${message}` : message;
  return new ValidationError(text, param);
}
