import type { RequestHandler } from 'express';
import type { Logger } from '../../shared/logger.js';

/** One line per request. The path only: query strings may carry cursors, never secrets, but stay out anyway. */
export function requestLog(log: Logger): RequestHandler {
  // Fixed fields, none a secret: these lines skip the redaction (a cost on every request) of free-form ones.
  const lines = log.child({}, { redact: [] });
  return (req, res, next) => {
    const started = performance.now();
    res.on('finish', () => {
      lines.info(
        {
          request_id: req.requestId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          ms: Math.round((performance.now() - started) * 10) / 10,
          workspace_id: req.credential?.workspaceId,
        },
        'request',
      );
    });
    next();
  };
}
