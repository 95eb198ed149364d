import type { AppliedRange, CreatedWithin } from '../../../shared/contracts/created-range.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { ValidationError } from '../../../shared/errors.js';
import { parseLocalDate } from '../../../shared/time/zoned-day.js';
import { instantOf, resolveCreatedRange } from '../../runtime/created-range.js';

export interface EventTimeFilters {
  created_after?: string;
  created_before?: string;
  created_within?: CreatedWithin;
}

/** The feed's time bounds as SQL compares them; `applied` echoes a range read in the workspace time zone. */
export interface EventTimeBounds {
  after?: { at: string; inclusive: boolean };
  before?: string;
  applied?: AppliedRange;
}

const isDay = (text: string | undefined) => text !== undefined && parseLocalDate(text) !== null;

/**
 * An instant bounds the feed strictly (a poller passes the last `created_at` it saw); a day
 * or `created_within` is read in the workspace time zone, from the start of its first day
 * (inclusive) to the start of the day after (exclusive), like the contact and deal lists.
 */
export async function eventTimeBounds(db: WorkspaceSql, filters: EventTimeFilters, now = new Date()): Promise<EventTimeBounds> {
  const { created_after: after, created_before: before, created_within: within } = filters;
  if (within === undefined && !isDay(after) && !isDay(before)) {
    const bounds = {
      after: after === undefined ? undefined : { at: new Date(after).toISOString(), inclusive: false },
      // created_at is kept to the millisecond: an exclusive end rounds finer digits up (the row of
      // that millisecond is before it), an exclusive start truncates them (that row is not after it).
      // (and, rounded up past 9999-12-31, it is a 400 as in the lists rather than Postgres's refusal).
      before: instantOf('created_before', before, 'UTC') ?? undefined,
    };
    // Refused as the lists refuse a backwards range: an empty page would read as "nothing changed".
    if (bounds.after !== undefined && bounds.before !== undefined && bounds.before <= bounds.after.at) {
      throw new ValidationError(
        `created_before must be later than created_after: both instants are exclusive, so ${bounds.after.at} to ${bounds.before} holds no event.`,
        'created_before',
      );
    }
    return bounds;
  }
  const { time_zone: zone } = await db.global.selectFrom('workspaces').select('time_zone').where('id', '=', db.workspaceId).executeTakeFirstOrThrow();
  const applied = resolveCreatedRange(filters, zone, now);
  return {
    // An instant start is exclusive here, so its finer digits are truncated rather than rounded up
    // as the lists' inclusive start has them (rounded up, `>` would miss the row of that millisecond).
    after:
      applied.created_after === null
        ? undefined
        : within !== undefined || isDay(after)
          ? { at: applied.created_after, inclusive: true }
          : { at: new Date(after!).toISOString(), inclusive: false },
    before: applied.created_before ?? undefined,
    applied,
  };
}
