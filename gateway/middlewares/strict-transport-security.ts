import type { RequestHandler } from 'express';

/** A year, the value browsers' preload lists ask for; subdomains are the operator's to decide. */
const HSTS = 'max-age=31536000';

/**
 * Behind an https public URL, tells browsers to use https only for this host, so a sign-in
 * cookie or a token is never sent over a downgraded plain-http connection. Plain-http
 * deployments (loopback, a trusted network) get no header: it would be ignored there anyway.
 */
export function strictTransportSecurity(publicUrl: () => string): RequestHandler {
  return (_req, res, next) => {
    if (publicUrl().startsWith('https:')) res.set('Strict-Transport-Security', HSTS);
    next();
  };
}
