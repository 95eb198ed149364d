import type { CallContext } from '../../shared/contracts/call-context.js';
import type { WorkspaceSql } from '../../shared/db/workspace-sql.js';
import { NotFoundError } from '../../shared/errors.js';
import { parentOf, requireParentScope, visibleParent } from './note-parent.js';
import type { NoteRow } from './note-resource.js';

/**
 * A note of the workspace that the caller may `access`: a 403 naming its record's scope
 * without it, and a 404 when the caller cannot see the record (an `owned` member and
 * another owner's contact or deal). Returns the note and its record's owner (for events).
 * `lock`: held until the write commits, so the event's previous values are the real ones.
 */
export async function findNote(
  db: WorkspaceSql,
  context: CallContext,
  id: string,
  access: 'read' | 'write',
  options: { lock?: boolean } = {},
): Promise<{ note: NoteRow; parentOwner: string | null }> {
  const note = await db
    .selectFrom('notes')
    .selectAll()
    .where('id', '=', id)
    .$if(options.lock === true, (q) => q.forUpdate())
    .executeTakeFirst();
  if (!note) throw new NotFoundError('note', id, 'id');
  const parent = parentOf(note);
  requireParentScope(context, parent.kind, access);
  const visible = await visibleParent(db, context, parent);
  if (!visible) throw new NotFoundError('note', id, 'id');
  return { note, parentOwner: visible.owner_id };
}
