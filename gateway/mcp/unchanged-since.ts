import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isoInstant } from '../../shared/contracts/common.js';
import { getContact } from '../../shared/contracts/contacts.js';
import { getDeal } from '../../shared/contracts/deals.js';
import type { McpServerKey } from '../../shared/contracts/oauth.js';
import { CrmError } from '../../shared/errors.js';
import type { ToolCall } from './tool.js';
import { toolErrorResult } from './tool-error-result.js';

/**
 * The argument of a tool that changes a contact or deal in place: the record's updated_at as
 * the agent read it. It is the operation's expected_versions (REST's If-Match), checked by the
 * worker on the locked row: an agent that read, thought a while, then wrote does not silently
 * overwrite what a colleague changed in between.
 */
export const UNCHANGED_SINCE = 'unchanged_since';

/** The records such a tool changes: the tool that reads one again, and those that answer its updated_at. */
const VERSIONED = {
  contact: { read: getContact, get: 'get_contact', readers: 'get_contact, find_contacts or an earlier update_contact' },
  deal: { read: getDeal, get: 'get_deal', readers: 'get_deal, find_deals or an earlier update_deal' },
} as const;
export type VersionedRecord = keyof typeof VERSIONED;

export function unchangedSinceArgument(record: VersionedRecord) {
  const { readers } = VERSIONED[record];
  return isoInstant(`must be an instant, the ${record}'s updated_at as ${readers} gave it (e.g. 2026-03-01T09:30:00.123Z)`)
    // null as left out: small models fill every argument they see, and a condition has nothing to clear.
    .nullable()
    .optional()
    .describe(
      `The ${record}'s updated_at exactly as ${readers} gave it, milliseconds included, e.g. 2026-03-01T09:30:00.123Z. Given, the change applies only if nobody changed the ${record} since; otherwise nothing changes and the error gives its new updated_at. Pass it whenever time has passed since you read the ${record} (you asked the user, or worked on something else), so that a colleague's change in between is not overwritten. Left out (or null), the change applies whatever happened meanwhile.`,
    );
}

/** The versions the operation may apply to: the instant as updated_at is given out (UTC, to the millisecond), whatever offset or precision it was written with. */
export function expectedVersionsOf(unchangedSince: unknown): string[] | undefined {
  return typeof unchangedSince === 'string' ? [new Date(unchangedSince).toISOString()] : undefined;
}

/** Digits after the seconds' dot in an instant as written (0 when there are none). */
function fractionDigits(instant: string): number {
  return /T\d{2}:\d{2}:\d{2}\.(\d+)/.exec(instant)?.[1]?.length ?? 0;
}

/** `iso` (a UTC instant to the millisecond) cut to `digits` fraction digits, as `given` was written. */
function cutTo(iso: string, digits: number): string {
  return iso.slice(0, 20 + digits).replace(/\.$/, '') + 'Z';
}

/** Whether the record already holds every value the call gave (compared as given; a value written otherwise, e.g. a phone in another format, counts as not held). */
function holdsEveryValue(record: Record<string, unknown>, args: Record<string, unknown>): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  const given = Object.entries(args).filter(([key]) => key !== 'id' && key !== UNCHANGED_SINCE);
  return (
    given.length > 0 &&
    given.every(([key, value]) => {
      if (key !== 'custom_fields') return Object.hasOwn(record, key) && same(record[key], value);
      const held = record.custom_fields;
      return typeof value === 'object' && value !== null && typeof held === 'object' && held !== null && Object.entries(value).every(([field, v]) => same((held as Record<string, unknown>)[field], v));
    })
  );
}

/**
 * The worker's refusal (its words are REST's, If-Match and ETag) as the agent needs it: the
 * record changed since, its updated_at now, nothing changed, and how to go on. Where "changed
 * since" would be untrue it says what is: a value it never had (later than its updated_at,
 * earlier than its creation), one that matches only to the second (it may have changed within
 * it), or a change already there (the agent's own earlier call, say, that timed out after it
 * committed).
 */
export async function changedSinceResult(record: VersionedRecord, args: Record<string, unknown>, call: ToolCall, server: McpServerKey): Promise<CallToolResult> {
  const { read, get } = VERSIONED[record];
  const id = String(args.id);
  const written = String(args[UNCHANGED_SINCE]);
  const given = expectedVersionsOf(args[UNCHANGED_SINCE])?.[0] ?? written;
  // Read after the refusal, to say what the record is at; a read that fails only leaves that out.
  const current = await call.run(read, { id }).then(
    (r) => r as unknown as Record<string, unknown> & { updated_at: string; created_at: string },
    () => undefined,
  );
  const now = current === undefined ? '' : `; its updated_at is now ${current.updated_at}`;
  const reread = `Read the ${record} again with ${get}, check it is still as you meant to change it, then call again with its updated_at exactly as given, milliseconds included.`;
  const redo = `Read the ${record} again with ${get}, make your change on what it is now (ask the user if the other change touches what you meant to change), then call again with ${UNCHANGED_SINCE} set to its new updated_at, milliseconds included.`;
  let what: string;
  let hint: string;
  const digits = fractionDigits(written);
  if (current !== undefined && digits < 3 && cutTo(current.updated_at, digits) === cutTo(given, digits)) {
    // Without its milliseconds the value cannot tell the version read from one written later in the same second: never say "unchanged".
    what = `unchanged_since ${written} matches the ${record} ${id}'s updated_at now (${current.updated_at}) to the second but not to the millisecond, so it may have been changed within that second.`;
    hint = redo;
  } else if (current !== undefined && (given > current.updated_at || given < cutTo(current.created_at, digits))) {
    // Not a time this record was ever at (another field's time, or made up): "changed since" would be untrue.
    what = `The ${record} ${id} never had the updated_at ${given} (unchanged_since takes the updated_at it was read with)${now}.`;
    hint = reread;
  } else if (current !== undefined && holdsEveryValue(current, args)) {
    what = `The ${record} ${id} has been changed since ${given}, and it already holds every value you gave${now}: an earlier call (yours, perhaps, that did not answer) may have made this change.`;
    hint = `Check with ${get} that the ${record} is as you meant; if it is, there is nothing more to do.`;
  } else {
    what = `The ${record} ${id} has been changed since you read it (at updated_at ${given})${now}.`;
    hint = redo;
  }
  const error = new CrmError('precondition_failed', `${what} Nothing was changed.`, { param: UNCHANGED_SINCE });
  return toolErrorResult(error, server, hint);
}
