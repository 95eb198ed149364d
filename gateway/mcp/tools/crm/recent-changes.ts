import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common.js';
import { AppliedRange, CreatedWithin, dayOrInstant } from '../../../../shared/contracts/created-range.js';
import { Actor, EVENT_OBJECTS, EVENT_TYPES, EventType, listEvents, type EventObjectType } from '../../../../shared/contracts/events.js';
import { changedFields } from '../../../../shared/events/changed-fields.js';
import { ValidationError } from '../../../../shared/errors.js';
import { ID_PREFIXES } from '../../../../shared/ids.js';
import { defineTool } from '../../tool.js';
import { PageInfo, PagingInput } from '../list-page.js';

const ObjectType = z.enum(Object.keys(EVENT_OBJECTS) as [EventObjectType, ...EventObjectType[]]);

/** `contact.` (as the REST feed's type filter takes a kind) or `contact.*`: the kind of record the model meant. */
const KIND_AS_TYPE = /^([a-z_]+)\.\*?$/;

/**
 * One event type. A kind of record written as a type is answered with the argument that takes
 * it, rather than a list of thirty types in which a small model does not find object_type.
 */
const ChangeType = z.enum(EVENT_TYPES, {
  error: (issue) => {
    const kind = typeof issue.input === 'string' ? KIND_AS_TYPE.exec(issue.input.trim())?.[1] : undefined;
    if (kind === undefined || !Object.hasOwn(EVENT_OBJECTS, kind)) return undefined;
    return `is one kind of change (e.g. ${kind}.created); for every change to a ${kind}, leave type out and give object_type "${kind}"`;
  },
});

/** The id prefixes of the records changes are about (con, deal, note, fld…), and of the actors that make them. */
const OBJECT_PREFIXES: readonly string[] = Object.values(EVENT_OBJECTS).map((o) => ID_PREFIXES[o.id]);
const ACTOR_PREFIXES: readonly string[] = [ID_PREFIXES.token, ID_PREFIXES.grant, ID_PREFIXES.user];
const described = (prefixes: readonly string[]) => prefixes.map((p) => `${p}_…`).join(', ');

/**
 * An id of one of these kinds. A name or an e-mail here matched no change and was answered with
 * an empty list, which an agent took for "nothing changed".
 */
function idOfKinds(prefixes: readonly string[], what: string) {
  return z
    .string()
    .trim()
    .min(1)
    .max(64)
    .refine((id) => prefixes.includes(/^([a-z]+)_/.exec(id)?.[1] ?? ''), { message: `must be ${what}` });
}

const Change = z.object({
  id: z.string().describe('evt_…'),
  type: EventType,
  at: z.string().describe('When (ISO 8601 UTC)'),
  by: Actor,
  object_id: z.string(),
  changed: z
    .record(z.string(), z.object({ from: z.unknown(), to: z.unknown() }))
    .nullable()
    .describe('For updates: each changed field, from its old value to its new one'),
  record: z.record(z.string(), z.unknown()).describe('The record after the change (as it was, for a deletion)'),
});

/**
 * The range applied, in the tool's own words: REST's created_after/created_before echoed to a
 * model that sent since left it to guess which is which, and whether the start is included.
 */
const AppliedChangesRange = z.object({
  since: z.string().nullable().describe('The start of the day in since or the period in within (UTC ISO 8601), inclusive: changes at or after it are listed; null when open'),
  before: z.string().nullable().describe('Changes before this instant (exclusive, UTC ISO 8601) are listed: the end of the period given in within; null when open'),
  time_zone: AppliedRange.shape.time_zone,
});

export const recentChangesTool = defineTool({
  name: 'recent_changes',
  title: 'Recent changes',
  description:
    'What changed in the workspace and who changed it (a token, a connected agent and its user, a console user, the command line), newest first. Narrow by record id, kind of record, event type, kind of actor or one actor, or time (a day or a period such as today, in the workspace time zone); follow next_cursor for older changes. Only changes to records this connection may read are listed.',
  op: listEvents,
  input: {
    object_id: idOfKinds(OBJECT_PREFIXES, `a record's id (${described(OBJECT_PREFIXES)}), not a name or an e-mail: find_contacts and find_deals give a contact's or a deal's id`)
      .optional()
      .describe('One record: con_…, deal_…, note_…, fld_…, pipe_…, stg_… (a note has changes of its own, not under its contact or deal)'),
    object_type: ObjectType.optional().describe('One kind of record, e.g. deal'),
    type: ChangeType.optional().describe('One kind of change, e.g. deal.stage_changed'),
    actor_kind: Actor.shape.kind.optional(),
    actor_id: idOfKinds(ACTOR_PREFIXES, `an actor's id (${described(ACTOR_PREFIXES)}) as a change's by.id gives it, not a name or an e-mail; your own is whoami's authorized_by.id; the command line and the service have none: give actor_kind`)
      .optional()
      .describe("One actor's changes: the by.id of a change (a token tok_…, an agent gnt_…, a user usr_…)"),
    since: dayOrInstant('within').optional().describe(
      "Only changes strictly after this instant (exclusive: a change at exactly it is left out; ISO 8601 with its offset, e.g. 2026-01-31T16:00:00Z), or from the start of this day (YYYY-MM-DD) in the workspace time zone, inclusive. A day is echoed as applied_range.since. To look again for new changes, give an instant at least 30 seconds before the newest change's at you saw and skip the change ids you already have: a change's at is taken just before it is saved, so one saved late (an import batch may take 30 seconds) can carry an earlier at than changes already listed",
    ),
    within: CreatedWithin.optional().describe(
      'Only changes in this period of the workspace time zone, e.g. today or last_7_days; echoed as applied_range.since (inclusive) and applied_range.before (exclusive). Not with since',
    ),
    ...PagingInput,
  },
  output: z.object({
    changes: z.array(Change),
    ...PageInfo,
    applied_range: AppliedChangesRange.optional().describe('For a day in since or a period in within: the instants they meant'),
  }),
  opInput: ({ object_id: objectId, object_type: objectType, type, actor_kind: actorKind, actor_id: actorId, since, within, limit, cursor }) => {
    if (type && objectType && !type.startsWith(`${objectType}.`)) {
      throw new ValidationError(`type ${type} is not a change to a ${objectType}; give one of them, or a matching pair.`, 'type');
    }
    if (since !== undefined && within !== undefined) throw new ValidationError('Give since or within, not both.', 'within');
    return {
      limit: limit ?? DEFAULT_PAGE_SIZE,
      cursor,
      object_id: objectId,
      type: type ?? (objectType ? `${objectType}.` : undefined),
      actor_kind: actorKind,
      actor_id: actorId,
      created_after: since,
      created_within: within,
    };
  },
  result: (page) => ({
    changes: page.data.map((event) => ({
      id: event.id,
      type: event.type,
      at: event.created_at,
      by: event.actor,
      object_id: String(event.data.object.id ?? ''),
      changed: changedFields(event),
      record: event.data.object,
    })),
    has_more: page.has_more,
    next_cursor: page.next_cursor,
    ...(page.applied_range
      ? { applied_range: { since: page.applied_range.created_after, before: page.applied_range.created_before, time_zone: page.applied_range.time_zone } }
      : {}),
  }),
});
