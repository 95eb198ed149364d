import type { CallContext } from '../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { grantsScope } from '../../shared/auth/scopes.js';
import { NOTE_PARENTS } from '../../shared/contracts/note-parents.js';
import { NotFoundError } from '../../shared/errors.js';
import { parentOf, parentScope, requireParentScope, visibleParent } from './note-parent.js';
import type { NoteRow } from './note-resource.js';

/**
 * A note of the workspace that the caller may `access`: a 404, as for no note, when the
 * caller cannot read its kind of record (a 403 would tell a deals-only credential that the
 * id is a note on a contact) or cannot see the record (an `owned` member and another
 * owner's contact or deal); a 403 naming the record's write scope when it reads but may not write. Returns the note and its record's owner (for events).
 * `lock`: held until the write commits, so the event's previous values are the real ones.
 */
export async function findNote(
  db: WorkspaceSql,
  context: CallContext,
  id: string,
  access: 'read' | 'write',
  options: { lock?: boolean } = {},
): Promise<{ note: NoteRow; parentOwner: string | null }> {
  const read = (lock: boolean) =>
    db
      .selectFrom('notes')
      .selectAll()
      .where('id', '=', id)
      .$if(lock, (q) => q.forUpdate())
      .executeTakeFirst();
  const readsEveryKind = Object.values(NOTE_PARENTS).every((parent) => grantsScope(context.principal.scopes, parent.read));
  // A caller who may not read some kind is answered before any lock: locking first would make a
  // note of that kind, busy elsewhere, answer its 404 later than an unknown id does.
  let note = await read(options.lock === true && readsEveryKind);
  if (!note) throw new NotFoundError('note', id, 'id');
  const parent = parentOf(note);
  if (!grantsScope(context.principal.scopes, parentScope(parent.kind, 'read'))) throw new NotFoundError('note', id, 'id');
  if (options.lock === true && !readsEveryKind) {
    note = await read(true);
    if (!note) throw new NotFoundError('note', id, 'id');
  }
  requireParentScope(context, parent.kind, access);
  const visible = await visibleParent(db, context, parent);
  if (!visible) throw new NotFoundError('note', id, 'id');
  return { note, parentOwner: visible.owner_id };
}
