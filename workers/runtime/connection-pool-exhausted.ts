/** What pg-pool rejects a checkout with when every connection stayed busy for `connectionTimeoutMillis`. */
const POOL_CHECKOUT_TIMEOUT = 'timeout exceeded when trying to connect';

/**
 * Whether the request waited in vain for a connection of this process's own pool, also when
 * wrapped (`cause`) by the ORM or a transaction. Its connections were all in use, or all
 * still connecting (the request that opens one hears of a database that does not answer):
 * the operator hears both, not only "unreachable".
 */
export function isConnectionPoolExhausted(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  if (error.message === POOL_CHECKOUT_TIMEOUT) return true;
  return isConnectionPoolExhausted(error.cause, depth + 1);
}
