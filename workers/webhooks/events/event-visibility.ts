import { sql, type RawBuilder } from 'kysely';
import { grantsScope } from '../../../shared/auth/scopes.js';
import type { CallContext } from '../../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { EVENT_OBJECTS, readsEventsOf, type EventObjectType } from '../../../shared/contracts/events.js';
import { NOTE_PARENTS } from '../../../shared/contracts/note-parents.js';
import { ownerRestriction } from '../../runtime/visibility.js';

const OBJECT_TYPES = Object.keys(EVENT_OBJECTS) as EventObjectType[];
/** The kinds of record an `owned` member sees only some of, as EVENT_OBJECTS declares them. */
type OwnedType = { [K in EventObjectType]: (typeof EVENT_OBJECTS)[K]['owned'] extends true ? K : never }[EventObjectType];

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
 * (a note's: of its contact or deal), and, for an `owned` member, only the contacts and deals
 * they own now, and notes on those: a record's whole history goes with it when it is
 * reassigned, and leaves whoever owned it before. A deleted deal's history (its notes'
 * included) stays with whoever owned it when it was deleted.
 */
export function visibleEventsSql(db: WorkspaceSql, context: CallContext): RawBuilder<boolean> {
  const readable = readableObjectTypes(context);
  if (readable.length === 0) return sql<boolean>`false`;
  const kinds = sql.join(readable.map((t) => sql.lit(t)));
  const owner = ownerRestriction(context);
  const parents = noteParentsSql(context);
  if (owner === null) return sql<boolean>`(object_type in (${kinds}) and ${parents})`;

  // The member's records as uncorrelated subqueries: Postgres reads each once per statement
  // into a hash and probes it per event, instead of a lookup per event the feed walks past.
  const theirContacts = db.selectFrom('contacts').select('id').where('owner_id', '=', owner);
  const theirDeals = db.selectFrom('deals').select('id').where('owner_id', '=', owner);
  const ownedContact = (id: RawBuilder<string>) => sql<boolean>`${id} in (${theirContacts})`;
  // A deleted deal's history stays with whoever owned it when it was deleted (its deal.deleted
  // event's owner); the lookups run only for events of deals that no longer exist.
  const deletedTheirs = (id: RawBuilder<string>) =>
    db
      .selectFrom('events as gone')
      .select(sql.lit(1).as('one'))
      .where(sql<boolean>`gone.object_id = ${id}`)
      .where('gone.type', '=', 'deal.deleted')
      .where('gone.owner_id', '=', owner);
  const ownedDeal = (id: RawBuilder<string>) =>
    sql<boolean>`(${id} in (${theirDeals}) or (not exists (${db.selectFrom('deals').select(sql.lit(1).as('one')).where(sql<boolean>`deals.id = ${id}`)}) and exists (${deletedTheirs(id)})))`;
  const objectId = sql.ref<string>('events.object_id');
  const noteOn = (field: string) => sql<string>`events.data ->> ${sql.lit(field)}`;
  // One condition per owned kind (the type makes a kind declared owned without one a compile error).
  const owned: Record<OwnedType, RawBuilder<boolean>> = {
    contact: ownedContact(objectId),
    deal: ownedDeal(objectId),
    // A note is on one record: the other field is null (and must not read as "a deal deleted since").
    note: sql<boolean>`case when ${noteOn(NOTE_PARENTS.contact.field)} is not null then ${ownedContact(noteOn(NOTE_PARENTS.contact.field))} else ${ownedDeal(noteOn(NOTE_PARENTS.deal.field))} end`,
  };
  const ownedKinds = Object.keys(owned) as OwnedType[];
  const ownedNow = sql.join(
    ownedKinds.map((t) => sql<boolean>`(object_type = ${sql.lit(t)} and ${owned[t]})`),
    sql` or `,
  );
  return sql<boolean>`(object_type in (${kinds}) and ${parents} and (object_type not in (${sql.join(ownedKinds.map((t) => sql.lit(t)))}) or ${ownedNow}))`;
}
