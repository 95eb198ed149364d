import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Scope } from '../../shared/auth/scopes.js';
import { isArchivedStageMove } from '../../shared/contracts/archived-stage-move.js';
import type { McpServerKey } from '../../shared/contracts/oauth.js';
import { ErrorCode, ErrorReason, type CrmError } from '../../shared/errors.js';

/** What a tool error carries as structuredContent: the code, the words, and what to do next. */
export const ToolError = z.object({
  code: ErrorCode,
  message: z.string(),
  param: z.string().optional().describe('The argument at fault'),
  required_scope: Scope.optional().describe('The scope the call needs and the connection lacks'),
  existing_id: z.string().optional().describe('The record that already exists (e.g. a contact with this phone)'),
  retry_after: z.number().int().optional().describe('Seconds to wait before calling again'),
  reason: ErrorReason.optional(),
  hint: z.string().describe('One line: what to do next'),
});
export type ToolError = z.infer<typeof ToolError>;

type HintOf = (error: CrmError, server: McpServerKey) => string;

/** Where each server's tools list the ids an agent may pass. */
const IDS_LISTED_BY: Record<McpServerKey, string> = {
  crm: 'find_contacts, find_deals and describe_schema list the ids this connection can see',
  studio: 'list_pipelines lists the pipelines with their stages, list_custom_fields the custom fields',
};

/** Where the tools of `server` list the ids an agent may pass, in words. */
export function idsListedBy(server: McpServerKey): string {
  return IDS_LISTED_BY[server];
}

/** A record that is not there, by the argument that named it: no tool lists members, and a name is not an id. */
function notFoundHint(e: CrmError, server: McpServerKey): string {
  switch (e.details.param) {
    case 'owner_id':
      return "owner_id takes a member's user id (usr_…), not an e-mail or a name: your own is whoami's authorized_by.id when its type is user; ask the user for anyone else's, or leave owner_id out.";
    case 'stage':
    case 'pipeline':
      return `Use one of the names in the message, or an id that ${server === 'crm' ? 'describe_schema' : 'list_pipelines'} lists.`;
    default:
      return `Check the id: ${IDS_LISTED_BY[server]}.`;
  }
}

/** Studio's refusals of a design change, by the argument at fault: what to send instead, which rereading would not say. */
const STUDIO_CONFLICT_HINTS: ReadonlyMap<string, string> = new Map([
  // An option records still hold, left out of update_custom_field's list.
  [
    'options',
    // An archived field is left out of list_custom_fields unless asked for, and its values cannot be written until it is restored.
    'Call again with the options the message names kept in the list (list_custom_fields gives the current one, with include_archived: true for an archived field), or ask the user to change the records that hold them first (update_contact or update_deal on the CRM server; an archived field is first restored with archived: false).',
  ],
  // An archived stage renamed or moved, or the last active stage archived.
  ['stage_id', "Use an active stage: list_pipelines gives each pipeline's active stages in order, and create_stage adds one; update_stage with archived: false restores an archived one."],
]);

/** create_contact's e-mail address another contact has: the person is likely that contact, not a new one. */
function emailTakenHint(e: CrmError): string {
  return e.details.existing_id
    ? `That person is probably already the contact ${e.details.existing_id}: read it with get_contact, or change it with update_contact. Only if the user wants a separate contact with the same email, call create_contact again with allow_duplicate_email: true.`
    : 'A contact with this email exists that this connection may not see: ask the user whether it is the same person; only if they want a separate contact, call create_contact again with allow_duplicate_email: true.';
}

/** A name or key already taken: say what else to do, which rereading the record would not. */
function conflictHint(e: CrmError, server: McpServerKey): string {
  if (server === 'crm' && e.details.reason === 'email_taken') return emailTakenHint(e);
  switch (e.details.param) {
    case 'name': {
      // Names are unique among pipelines, and among a pipeline's stages: where custom fields or contacts are listed does not help.
      const taken = e.details.existing_id ? ` (${e.details.existing_id})` : '';
      return `Choose another name (case and extra spaces are ignored when names are compared), or use the one that exists${taken}: ${server === 'studio' ? 'list_pipelines lists the pipelines with their stages' : 'describe_schema lists the pipelines with their stages'}.`;
    }
    case 'key':
      if (e.details.existing_id) {
        return `That key belongs to the field ${e.details.existing_id}: use it (update_custom_field with archived: false restores it if it is archived), or choose another key.`;
      }
      return 'Choose another key, or use the field that has it: list_custom_fields with include_archived: true lists every field.';
    default:
      return (server === 'studio' ? STUDIO_CONFLICT_HINTS.get(e.details.param ?? '') : undefined) ?? 'Read the record again and decide with the user before retrying.';
  }
}

/** A deal moved into an archived stage: who can restore it, which the CRM connection itself cannot (Studio has no deal tools). */
const ARCHIVED_STAGE_HINT =
  "The stage is archived, and this CRM connection cannot restore it: move the deal to an active stage (describe_schema lists them), or ask the user whether someone with Studio access should restore the stage (Studio's update_stage with archived: false), then call again.";

/** The next step for each kind of error, worded for an agent acting for its user. */
const HINTS: Partial<Record<ErrorCode, HintOf>> = {
  validation_failed: (e, server) =>
    server === 'crm' && isArchivedStageMove(e)
      ? ARCHIVED_STAGE_HINT
      : e.message.startsWith('Unknown parameter') ? 'Call again with only the valid parameters listed.' : `Correct ${e.details.param ? `\`${e.details.param}\`` : 'the arguments'} and call again.`,
  invalid_cursor: () => 'Call again without cursor (or with the next_cursor of the same query) to start over.',
  not_found: notFoundHint,
  phone_taken: (e) => (e.details.existing_id ? `That contact exists: read it with get_contact id ${e.details.existing_id}, or change it with update_contact.` : 'A contact with this phone exists but this connection may not see it; ask the user.'),
  conflict: conflictHint,
  // "Use a new key" alone turned a retry with its arguments written differently (a phone spaced otherwise, a stage's case) into a second record.
  idempotency_key_reused: (_e, server) =>
    `That idempotency_key went with other arguments, and that request was done. If this call retries it, do not send it with a new key, which would create a second record: ${server === 'crm' ? 'find_contacts, find_deals or list_notes find' : 'list_pipelines or list_custom_fields find'} what it made. Use a new key only for a new request.`,
  forbidden: () => 'This connection may not do that; ask a workspace administrator.',
  rate_limited: (e) => `Wait ${e.details.retry_after ?? 'a few'} seconds, then call again.`,
  unavailable: () => 'The service is briefly unavailable: call again in a few seconds.',
  internal: () => 'Call again once; if it fails again, tell the user the request id in the message.',
};

/** The tool error for `error` on `server` (whose tools the hint may name). */
export function toolErrorResult(error: CrmError, server: McpServerKey, hint?: string): CallToolResult {
  const payload: ToolError = { ...error.toPayload(), hint: hint ?? HINTS[error.code]?.(error, server) ?? 'Correct the call and try again.' };
  const where = payload.param ? ` (${payload.param})` : '';
  return { isError: true, content: [{ type: 'text', text: `${payload.code}: ${payload.message}${where}\nHint: ${payload.hint}` }], structuredContent: payload };
}
