import type { Options as RateLimitOptions } from 'express-rate-limit';

/**
 * express-rate-limit's checks of X-Forwarded-For and Forwarded turned off: without TRUST_PROXY
 * the gateway ignores both on purpose (a client can send anything there), yet each limiter
 * printed a multi-line "ValidationError … misconfiguration" stack trace, no JSON log line, the
 * first time any client sent one. The client address is `req.ip`, as TRUST_PROXY decides.
 */
export const FORWARDING_CHECKS_OFF: Pick<RateLimitOptions, 'validate'> = {
  validate: { xForwardedForHeader: false, forwardedHeader: false },
};
