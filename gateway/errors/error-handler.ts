import type { ErrorRequestHandler, RequestHandler } from 'express';
import { CrmError, InternalError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { errorTypeOf, HTTP_STATUS } from './http-status.js';

/** body-parser reports its failures with a `type`; these are the client's mistakes. */
function fromBodyParser(error: unknown): CrmError | null {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.parse.failed') return new CrmError('invalid_json', 'The request body is not valid JSON.');
  if (type === 'entity.too.large') return new CrmError('payload_too_large', 'The request body is too large.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new CrmError('unsupported_media_type', 'The request body must be UTF-8 JSON.');
  }
  // zlib's own error (gzip, deflate, br), which body-parser passes on as a 400: the body is not what its Content-Encoding says.
  const { errno, status } = error as { errno?: unknown; status?: unknown };
  if (typeof errno === 'number' && status === 400) {
    return new CrmError('invalid_json', 'The request body does not decompress as its Content-Encoding says.');
  }
  return null;
}

/** The router could not decode a path parameter: a malformed percent-escape such as `%` or `%E0%A4%A`. */
function fromRouter(error: unknown): CrmError | null {
  if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
    return new CrmError('validation_failed', 'The URL path is not valid: a percent-escape in it does not decode.');
  }
  return null;
}

/** Every error leaves the gateway here, in one shape: {"error":{type,code,message,…,request_id}}. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    let crm = error instanceof CrmError ? error : (fromBodyParser(error) ?? fromRouter(error));
    if (!crm) {
      log.error({ err: error, request_id: req.requestId }, 'unhandled error');
      crm = new InternalError();
    }
    const status = HTTP_STATUS[crm.code];
    if (status === 401) res.set('WWW-Authenticate', res.get('WWW-Authenticate') ?? 'Bearer realm="crm"');
    if (crm.details.retry_after !== undefined) res.set('Retry-After', String(crm.details.retry_after));
    if (res.headersSent) return;
    res.status(status).json({
      error: { type: errorTypeOf(status), ...crm.toPayload(), request_id: req.requestId },
    });
  };
}

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new CrmError('not_found', `No route for ${req.method} ${req.path}.`));
};
