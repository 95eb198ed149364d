import type { ErrorRequestHandler, RequestHandler } from 'express';
import { CrmError, InternalError, InvalidJsonError, PayloadTooLargeError, RouteNotFoundError, UnsupportedMediaTypeError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { RESERVED_KEY_MESSAGE } from '../middlewares/json-body.js';
import { RateLimitRefusedError, setRateLimitHeaders } from '../rate-limit/rate-limit-headers.js';
import { HTTP_STATUS } from './http-status.js';
import { invalidJsonMessage } from './json-syntax-position.js';
import { undecodablePathError } from './undecodable-path.js';
import { restErrorBody } from './rest-error-body.js';

/** body-parser reports its failures with a `type`; these are the client's mistakes. */
const BODY_PARSER_ERRORS: Record<string, (error: Error) => CrmError> = {
  'entity.parse.failed': (error) => new InvalidJsonError(error.message === RESERVED_KEY_MESSAGE ? RESERVED_KEY_MESSAGE : invalidJsonMessage((error as { body?: unknown }).body, error)),
  // The limit in the message: a client can split or trim to fit without guessing.
  'entity.too.large': (error) => {
    const { limit } = error as { limit?: unknown };
    return new PayloadTooLargeError(typeof limit === 'number' ? `The request body is too large: this API takes at most ${limit} bytes.` : undefined);
  },
  // A form (sign-in, consent, the OAuth endpoints) with more fields than the parser takes.
  'parameters.too.many': () => new PayloadTooLargeError('The request body has too many parameters.'),
  // A Content-Encoding the parser cannot undo (a charset it refuses is the next line): said as such, not as a charset.
  'encoding.unsupported': (error) => new UnsupportedMediaTypeError(unsupportedEncodingMessage((error as { encoding?: unknown }).encoding)),
  'charset.unsupported': (error) => new UnsupportedMediaTypeError(unsupportedCharsetMessage((error as { charset?: unknown }).charset)),
  // The client stopped sending, or sent another length than it announced: its fault, not a 500 (nor an error in the log).
  'request.aborted': () => new InvalidJsonError('The request body ended before the length its Content-Length announced.'),
  'request.size.invalid': () => new InvalidJsonError('The request body is not the length its Content-Length announced.'),
};

/** Names the encoding when it reads as one (a token), never echoing arbitrary header text. */
function unsupportedEncodingMessage(encoding: unknown): string {
  const named = typeof encoding === 'string' && /^[\w.+-]{1,40}$/.test(encoding) ? `Content-Encoding ${encoding}` : 'This Content-Encoding';
  return `${named} is not supported: send the request body uncompressed, or compressed with gzip, deflate or br.`;
}

/** Names the charset when it reads as one (a token), never echoing arbitrary header text. */
function unsupportedCharsetMessage(charset: unknown): string {
  const named = typeof charset === 'string' && /^[\w.:+-]{1,40}$/.test(charset) ? `The charset ${charset}` : 'This charset';
  return `${named} is not accepted: send the request body as UTF-8 JSON (charset=utf-8, or no charset).`;
}

export function fromBodyParser(error: unknown): CrmError | null {
  const type = (error as { type?: unknown }).type;
  if (typeof type === 'string' && Object.hasOwn(BODY_PARSER_ERRORS, type)) return (BODY_PARSER_ERRORS[type] as (error: Error) => CrmError)(error as Error);
  // zlib's own error (gzip, deflate, br), which body-parser passes on as a 400: the body is not what its Content-Encoding says.
  const { errno, status } = error as { errno?: unknown; status?: unknown };
  if (typeof errno === 'number' && status === 400) return new InvalidJsonError('The request body does not decompress as its Content-Encoding says.');
  return null;
}

/** Every error leaves the gateway here, in one shape: {"error":{type,code,message,…,request_id}}. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let crm = error instanceof CrmError ? error : (fromBodyParser(error) ?? undecodablePathError(error));
    // An internal error's own message names subjects and contracts (a worker's, or the bus
    // client's): it is for the log, and the caller gets the generic one with the request id.
    // One that already carries the generic message was logged where it happened (a worker's
    // unexpected error): logged again here, each fault would be two error lines.
    if (!crm || crm.code === 'internal') {
      if (!crm || crm.message !== InternalError.GENERIC_MESSAGE) log.error({ err: error, request_id: req.requestId }, crm ? 'internal error' : 'unhandled error');
      crm = new InternalError();
    }
    if (res.headersSent) {
      // Part of the answer is out: cut the connection, so the client sees a broken response
      // instead of waiting for the rest of one that never ends.
      res.destroy();
      return;
    }
    const status = HTTP_STATUS[crm.code];
    if (status === 401) res.set('WWW-Authenticate', res.get('WWW-Authenticate') ?? 'Bearer realm="crm"');
    if (crm.details.retry_after !== undefined) res.set('Retry-After', String(crm.details.retry_after));
    if (crm instanceof RateLimitRefusedError) setRateLimitHeaders(res, crm.verdict);
    res.status(status).json(restErrorBody(crm, req.requestId));
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new RouteNotFoundError(`No route for ${req.method} ${req.originalUrl}.`));
};
