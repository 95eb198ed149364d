import type { CallContext } from '../../shared/contracts/call-context.js';
import type { listNotes } from '../../shared/contracts/notes.js';
import { NOTE_PARENT_KINDS, type NoteParentKind } from '../../shared/contracts/note-parents.js';
import { decodeCursor, pageFrom, type CursorScope } from '../runtime/keyset-cursor.js';
import { afterPosition, beforePosition } from '../runtime/keyset-sql.js';
import { ownerRestriction } from '../runtime/visibility.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { grantsScope } from '../../shared/auth/scopes.js';
import { parentIn, parentScope, requireParentScope, requireVisibleParent } from './note-parent.js';
import { toNoteResource } from './note-resource.js';

/** The kinds of record whose notes the caller may read. */
function readableParents(context: CallContext): NoteParentKind[] {
  return NOTE_PARENT_KINDS.filter((kind) => grantsScope(context.principal.scopes, parentScope(kind, 'read')));
}

/**
 * One page of notes in (created_at, id) order, oldest first unless `order=desc`. With a
 * contact_id or deal_id, that record's notes (its scope, and a 404 when the caller cannot
 * see it); without, every note whose record the caller may read and see.
 */
export const listNotesHandler: OperationHandler<typeof listNotes> = async ({ input, context, db, services }) => {
  const { limit, cursor, ...filters } = input;
  const order = filters.order ?? 'asc';
  const scope: CursorScope = { workspaceId: context.workspace_id, list: 'notes', filters: { contact_id: filters.contact_id, deal_id: filters.deal_id, order } };
  const position = cursor ? decodeCursor(services.secrets.cursorKey, scope, cursor) : undefined;

  const parent = parentIn(filters);
  if (parent) {
    requireParentScope(context, parent.kind, 'read');
    await requireVisibleParent(db, context, parent);
  }
  const kinds = parent ? [parent.kind] : readableParents(context);
  const owner = parent ? null : ownerRestriction(context);

  const rows = await db
    .selectFrom('notes as n')
    .selectAll('n')
    .$if(parent?.kind === 'contact', (q) => q.where('n.contact_id', '=', parent!.id))
    .$if(parent?.kind === 'deal', (q) => q.where('n.deal_id', '=', parent!.id))
    .$if(parent === null && owner === null && kinds.length < 2, (q) => q.where(kinds.includes('contact') ? 'n.contact_id' : 'n.deal_id', 'is not', null))
    // An `owned` reader's notes are those on the records they own.
    .$if(owner !== null, (q) =>
      q.where((eb) =>
        eb.or([
          ...(kinds.includes('contact') ? [eb('n.contact_id', 'in', eb.selectFrom(db.table('contacts', 'c')).select('c.id').where('c.owner_id', '=', owner!))] : []),
          ...(kinds.includes('deal') ? [eb('n.deal_id', 'in', eb.selectFrom(db.table('deals', 'd')).select('d.id').where('d.owner_id', '=', owner!))] : []),
        ]),
      ),
    )
    .$if(position !== undefined && order === 'asc', (q) => q.where(afterPosition(position!, 'n')))
    .$if(position !== undefined && order === 'desc', (q) => q.where(beforePosition(position!, 'n')))
    .orderBy('n.created_at', order)
    .orderBy('n.id', order)
    .limit(limit + 1)
    .execute();
  return pageFrom(rows, limit, services.secrets.cursorKey, scope, toNoteResource);
};
