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
    .optional()
    .describe(
      `The ${record}'s updated_at exactly as ${readers} gave it, e.g. 2026-03-01T09:30:00.123Z. Given, the change applies only if nobody changed the ${record} since; otherwise nothing changes and the error gives its new updated_at. Pass it whenever time has passed since you read the ${record} (you asked the user, or worked on something else), so that a colleague's change in between is not overwritten. Left out, the change applies whatever happened meanwhile.`,
    );
}

/** The versions the operation may apply to: the instant as updated_at is given out (UTC, to the millisecond), whatever offset or precision it was written with. */
export function expectedVersionsOf(unchangedSince: unknown): string[] | undefined {
  return typeof unchangedSince === 'string' ? [new Date(unchangedSince).toISOString()] : undefined;
}

/**
 * The worker's refusal (its words are REST's, If-Match and ETag) as the agent needs it: the
 * record changed since, its updated_at now, nothing changed, and how to go on.
 */
export async function changedSinceResult(record: VersionedRecord, args: Record<string, unknown>, call: ToolCall, server: McpServerKey): Promise<CallToolResult> {
  const { read, get } = VERSIONED[record];
  const id = String(args.id);
  const given = expectedVersionsOf(args[UNCHANGED_SINCE])?.[0] ?? String(args[UNCHANGED_SINCE]);
  // Read after the refusal, to say what the record is at; a read that fails only leaves that out.
  const current = await call.run(read, { id }).then(
    (r) => r.updated_at,
    () => undefined,
  );
  const now = current === undefined ? '' : `; its updated_at is now ${current}`;
  // A later instant than the current one was never its updated_at (another field's time, or made up): "changed since" would be untrue.
  const what =
    current !== undefined && given > current
      ? `The ${record} ${id} never had the updated_at ${given} (unchanged_since takes the updated_at it was read with)${now}.`
      : `The ${record} ${id} has been changed since you read it (at updated_at ${given})${now}.`;
  const error = new CrmError('precondition_failed', `${what} Nothing was changed.`, { param: UNCHANGED_SINCE });
  return toolErrorResult(
    error,
    server,
    `Read the ${record} again with ${get}, make your change on what it is now (ask the user if the other change touches what you meant to change), then call again with ${UNCHANGED_SINCE} set to its new updated_at.`,
  );
}
