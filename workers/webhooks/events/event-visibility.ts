import { sql, type RawBuilder } from 'kysely';
import { grantsScope } from '../../../shared/auth/scopes.js';
import type { CallContext } from '../../../shared/contracts/call-context.js';
import { EVENT_OBJECTS, readsEventsOf, type EventObjectType } from '../../../shared/contracts/events.js';
import { NOTE_PARENTS } from '../../../shared/contracts/note-parents.js';
import { ownerRestriction } from '../../runtime/visibility.js';

const OBJECT_TYPES = Object.keys(EVENT_OBJECTS) as EventObjectType[];
const OWNED_TYPES = OBJECT_TYPES.filter((t) => EVENT_OBJECTS[t].owned);

/** The kinds of record whose events the caller may read: those its scopes let it read. */
export function readableObjectTypes(context: CallContext): EventObjectType[] {
  return OBJECT_TYPES.filter((t) => readsEventsOf(context.principal.scopes, t));
}

/** A note's event needs the scope of its own record: only the kinds of record the caller reads (none excluded: no condition). */
function noteParentsSql(context: CallContext): RawBuilder<boolean> {
  const parents = Object.values(NOTE_PARENTS);
  const readable = parents.filter((parent) => grantsScope(context.principal.scopes, parent.read));
  if (readable.length === parents.length) return sql<boolean>`true`;
  const given = readable.map((parent) => sql<boolean>`data ->> ${sql.lit(parent.field)} is not null`);
  return sql<boolean>`(object_type <> 'note' or ${given.length === 0 ? sql`false` : sql.join(given, sql` or `)})`;
}

/**
 * An event is visible to a caller who may read its record: the scope of the record's kind
 * (a note's: of its contact or deal), and, for an `owned` member, only contacts and deals
 * they own (after the change), and notes on those.
 */
export function visibleEventsSql(context: CallContext): RawBuilder<boolean> {
  const readable = readableObjectTypes(context);
  if (readable.length === 0) return sql<boolean>`false`;
  const kinds = sql.join(readable.map((t) => sql.lit(t)));
  const owner = ownerRestriction(context);
  const parents = noteParentsSql(context);
  if (owner === null) return sql<boolean>`(object_type in (${kinds}) and ${parents})`;
  const owned = sql.join(OWNED_TYPES.map((t) => sql.lit(t)));
  return sql<boolean>`(object_type in (${kinds}) and ${parents} and (object_type not in (${owned}) or owner_id = ${owner}))`;
}
