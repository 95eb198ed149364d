import { grantsScope, type Scope } from '../../shared/auth/scopes.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { NOTE_PARENTS, type NoteParentKind } from '../../shared/contracts/note-parents.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { MissingScopeError, NotFoundError } from '../../shared/errors.js';
import { ownerRestriction } from '../runtime/visibility.js';

/** The record a note is on. */
export type NoteParent = { kind: NoteParentKind; id: string };

export function parentOf(note: { contact_id: string | null; deal_id: string | null }): NoteParent {
  return note.contact_id !== null ? { kind: 'contact', id: note.contact_id } : { kind: 'deal', id: note.deal_id ?? '' };
}

/** The parent named by a create or list input (its contact_id or deal_id), if any. */
export function parentIn(input: { contact_id?: string | undefined; deal_id?: string | undefined }): NoteParent | null {
  if (input.contact_id !== undefined) return { kind: 'contact', id: input.contact_id };
  if (input.deal_id !== undefined) return { kind: 'deal', id: input.deal_id };
  return null;
}

export function parentScope(kind: NoteParentKind, access: 'read' | 'write'): Scope {
  return NOTE_PARENTS[kind][access];
}

/** 403 naming the record's scope: the gateway let the call through on the other kind's. */
export function requireParentScope(context: CallContext, kind: NoteParent['kind'], access: 'read' | 'write'): void {
  const scope = parentScope(kind, access);
  if (!grantsScope(context.principal.scopes, scope)) {
    // Named as notes on that kind of record: the tool or route itself was allowed on the other kind's scope.
    throw new MissingScopeError(scope, `${access === 'read' ? 'Reading' : 'Writing'} notes on a ${kind} needs the scope ${scope}, which the credential does not hold.`);
  }
}

/**
 * The parent's owner when the caller may see the parent (an `owned` member: only their
 * own records), else null. `lock`: the parent cannot be deleted before the write commits
 * (the lock a foreign key check takes anyway).
 */
export async function visibleParent(db: WorkspaceSql, context: CallContext, parent: NoteParent, options: { lock?: boolean } = {}): Promise<{ owner_id: string | null } | null> {
  const owner = ownerRestriction(context);
  const table = parent.kind === 'contact' ? 'contacts' : 'deals';
  const row = await db
    .selectFrom(table)
    .select('owner_id')
    .where('id', '=', parent.id)
    .$if(owner !== null, (q) => q.where('owner_id', '=', owner))
    .$if(options.lock === true, (q) => q.forKeyShare())
    .executeTakeFirst();
  return row ?? null;
}

/** Like {@link visibleParent}, but a parent the caller cannot see is a 404 naming the field that named it. */
export async function requireVisibleParent(db: WorkspaceSql, context: CallContext, parent: NoteParent, options: { lock?: boolean } = {}): Promise<{ owner_id: string | null }> {
  const found = await visibleParent(db, context, parent, options);
  if (!found) throw new NotFoundError(parent.kind, parent.id, NOTE_PARENTS[parent.kind].field);
  return found;
}
