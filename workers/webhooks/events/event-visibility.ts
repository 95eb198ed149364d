import { sql, type RawBuilder } from 'kysely';
import { grantsScope } from '../../../shared/auth/scopes.js';
import type { CallContext } from '../../../shared/contracts/call-context.js';
import { EVENT_OBJECTS, type EventObjectType } from '../../../shared/contracts/events.js';
import { ownerRestriction } from '../../runtime/visibility.js';

const OBJECT_TYPES = Object.keys(EVENT_OBJECTS) as EventObjectType[];
const OWNED_TYPES = OBJECT_TYPES.filter((t) => EVENT_OBJECTS[t].owned);

/** The kinds of record whose events the caller may read: those its scopes let it read. */
export function readableObjectTypes(context: CallContext): EventObjectType[] {
  return OBJECT_TYPES.filter((t) => grantsScope(context.principal.scopes, EVENT_OBJECTS[t].scope));
}

/**
 * An event is visible to a caller who may read its record: the scope of the record's kind,
 * and, for an `owned` member, only contacts and deals they own (after the change).
 */
export function visibleEventsSql(context: CallContext): RawBuilder<boolean> {
  const readable = readableObjectTypes(context);
  if (readable.length === 0) return sql<boolean>`false`;
  const kinds = sql.join(readable.map((t) => sql.lit(t)));
  const owner = ownerRestriction(context);
  if (owner === null) return sql<boolean>`object_type in (${kinds})`;
  const owned = sql.join(OWNED_TYPES.map((t) => sql.lit(t)));
  return sql<boolean>`(object_type in (${kinds}) and (object_type not in (${owned}) or owner_id = ${owner}))`;
}
