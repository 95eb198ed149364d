import type { RequestHandler } from 'express';

/**
 * A handler built at its first request, from what is known only once the gateway listens
 * (the public URL, when PORT is 0). Its `stack` is the built router's, so that the HTTP
 * metrics find the routes inside and label them with this mount's path: hidden, they were
 * all labelled "" (gateway/metrics/http-metrics.ts).
 */
export function lazyHandler(build: () => RequestHandler): RequestHandler {
  let handler: RequestHandler | undefined;
  const lazy: RequestHandler = (req, res, next) => {
    handler ??= build();
    return handler(req, res, next);
  };
  Object.defineProperty(lazy, 'stack', { get: () => (handler !== undefined && 'stack' in handler ? handler.stack : []) });
  return lazy;
}
