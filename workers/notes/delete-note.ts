import type { deleteNote } from '../../shared/contracts/notes.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { findNote } from './find-note.js';
import { toNoteResource } from './note-resource.js';

/** Removes a note; its event keeps the note as it was. */
export const deleteNoteHandler: OperationHandler<typeof deleteNote> = async ({ input, context, db, events }) => {
  const { note, parentOwner } = await findNote(db, context, input.id, 'write', { lock: true });
  await db.deleteFrom('notes').where('id', '=', note.id).execute();
  await events.record({ type: 'note.deleted', object: toNoteResource(note), owner: parentOwner });
  return { object: 'note' as const, id: note.id, deleted: true as const };
};
