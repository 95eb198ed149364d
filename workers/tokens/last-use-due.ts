import { pgTimestamp } from '../../shared/db/sql.js';

/** `last_used_at` of a token or grant is written at most this often, not on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Whether a credential's `last_used_at` is old enough to be written again. */
export function lastUseDue(lastUsedAt: string | null, now: Date): boolean {
  return !lastUsedAt || now.getTime() - pgTimestamp(lastUsedAt).getTime() > LAST_USED_RESOLUTION_MS;
}
