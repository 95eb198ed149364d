/**
 * Where the request counts of one window live. Gateways take counts in leases (a few at a
 * time) so that the store is asked once per lease, not once per request.
 */
export interface RateLimitStore {
  /**
   * Takes up to `want` of what is left under `limit` for `key` (one key per window) and
   * returns how many were granted and how many the key has used in all, this lease included.
   */
  lease(key: string, want: number, limit: number): Promise<{ granted: number; used: number }>;
}
