import { z } from 'zod';
import { parseLocalDate } from '../time/zoned-day.js';
import { isoInstant, Timestamp } from './common.js';

/**
 * The creation-date filters of the contact and deal lists and counts. A day (YYYY-MM-DD) and a
 * relative range (created_within) are read in the workspace's time zone by the worker, which
 * knows it; the range is half-open, [created_after, created_before), an empty or backwards one
 * is refused (it would answer nothing), and every answer echoes the instants it applied.
 */

const DAY_OR_INSTANT = 'must be a date (YYYY-MM-DD, read in the workspace time zone) or an ISO 8601 timestamp, e.g. 2026-01-31 or 2026-01-31T00:00:00Z';

const Instant = isoInstant(DAY_OR_INSTANT);

/** An instant whose offset's + became a space (a query string's form encoding): ends in " 01:00" where "+01:00" was meant. */
const PLUS_READ_AS_SPACE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)? \d{2}:?\d{2}$/;
const PLUS_AS_SPACE_PROBLEM = 'reads as a timestamp whose offset has a space where its + was: in a query string a + means a space, so write it %2B (2026-01-31T09:00:00%2B01:00), or give the time in UTC with Z';

export const CREATED_WITHIN = ['today', 'yesterday', 'last_7_days', 'this_week', 'last_week', 'this_month', 'last_month'] as const;
export const CreatedWithin = z.enum(CREATED_WITHIN, { error: `must be one of ${CREATED_WITHIN.join(', ')}` });
export type CreatedWithin = z.infer<typeof CreatedWithin>;

/** A date and time without an offset: which instant it is depends on a zone it does not name. */
const NO_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const NO_OFFSET_PROBLEM = 'has no offset, so it names no one instant: add Z for UTC or its offset (2026-01-31T09:00:00Z, 2026-01-31T09:00:00+01:00), or give the day alone (YYYY-MM-DD, read in the workspace time zone)';

/**
 * A day, or an instant with its offset. `periodParameter`: the argument that takes a period
 * such as last_week, named when one is given here instead (what a model asked for "changes
 * since yesterday" writes), since "must be a date" alone left it guessing a date.
 */
export function dayOrInstant(periodParameter: string) {
  return (
    z
      .string()
      .superRefine((text, ctx) => {
        if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
          if (parseLocalDate(text) === null) ctx.addIssue({ code: 'custom', message: 'must be a real calendar date, e.g. 2026-01-31' });
          return;
        }
        const instant = Instant.safeParse(text);
        if (instant.success) return;
        const period = CREATED_WITHIN.find((p) => p === text.trim().toLowerCase());
        if (period) {
          ctx.addIssue({ code: 'custom', message: `"${text}" is a period, not a date: give it as ${periodParameter} instead` });
          return;
        }
        // `?created_after=2026-03-02T09:00:00+01:00` written into a URL as it is: the query string reads its + as a space.
        const plusAsSpace = PLUS_READ_AS_SPACE.test(text);
        const noOffset = NO_OFFSET.test(text.trim());
        ctx.addIssue({ code: 'custom', message: plusAsSpace ? PLUS_AS_SPACE_PROBLEM : noOffset ? NO_OFFSET_PROBLEM : (instant.error.issues[0]?.message ?? DAY_OR_INSTANT) });
      })
      // The refinement is invisible to JSON Schema: documented as the two formats it takes, not as any string.
      .meta({ anyOf: [{ format: 'date' }, { format: 'date-time' }] })
  );
}

/** A day or an instant beside created_within, as the lists and counts take them. */
export const DayOrInstant = dayOrInstant('created_within');

/** The three filters, described for what they select (`what`: "contacts", "deals"). */
export function createdRangeFilters(what: string) {
  return {
    created_after: DayOrInstant.optional().describe(
      `Only ${what} created at or after this instant, or from the start of this day (YYYY-MM-DD) in the workspace time zone (inclusive)`,
    ),
    created_before: DayOrInstant.optional().describe(
      `Only ${what} created before this instant, or before the start of this day (YYYY-MM-DD) in the workspace time zone (exclusive: created_before=2026-01-31 ends when January 31 begins, so the single day 2026-01-31 is created_after=2026-01-31 with created_before=2026-02-01). Must be later than created_after`,
    ),
    created_within: CreatedWithin.optional().describe(
      `Only ${what} created in this period of the workspace time zone: today, yesterday, last_7_days (today and the 6 days before), this_week, last_week (weeks start on Monday), this_month or last_month. Not with created_after or created_before`,
    ),
  };
}

/** The range a list or count applied, as instants; every such answer carries it. */
export const AppliedRange = z
  .object({
    created_after: Timestamp.nullable().describe('Inclusive start (UTC ISO 8601); null when open'),
    created_before: Timestamp.nullable().describe('Exclusive end (UTC ISO 8601); null when open'),
    time_zone: z.string().describe('The workspace time zone that days and relative ranges were read in'),
  })
  .meta({ id: 'AppliedRange' });
export type AppliedRange = z.infer<typeof AppliedRange>;
