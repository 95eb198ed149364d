import type { ErrorRequestHandler } from 'express';
import { CrmError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { clientRequestError } from './client-request-error.js';
import { messagePage } from './message-page.js';
import { sendPage } from './session-routes.js';

/** Pages answer errors with a page: a person reads them, not a program. */
export function pageErrorHandler(log: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof CrmError) {
      const status = HTTP_STATUS[error.code];
      if (error.details.retry_after !== undefined) res.set('Retry-After', String(error.details.retry_after));
      return sendPage(res, messagePage(status >= 500 ? 'Please try again' : 'That did not work', `${error.message} (request ${req.requestId})`), status);
    }
    const refused = clientRequestError(error);
    if (refused) {
      // The sender's mistake (a form too large, too many fields): anyone can cause it, so no error line.
      log.info({ request_id: req.requestId, status: refused.status, type: refused.type }, 'page request refused');
      return sendPage(res, messagePage('That did not work', `${refused.message} (request ${req.requestId})`), refused.status);
    }
    log.error({ err: error, request_id: req.requestId }, 'page failed');
    sendPage(res, messagePage('Something went wrong', `An internal error occurred; it has been logged under request ${req.requestId}.`), 500);
  };
}
