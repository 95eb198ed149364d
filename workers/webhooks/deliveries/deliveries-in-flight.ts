/**
 * Webhook attempts in flight at once in one process: most wait on a receiver, not on this
 * process. Also the number of connections per endpoint address, so that no attempt waits
 * for a free connection while its timeout runs (a receiver that answers within the timeout
 * must succeed, however many deliveries it has queued).
 */
export const DELIVERIES_IN_FLIGHT = 32;
