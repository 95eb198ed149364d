import type { updateNote } from '../../shared/contracts/notes.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { findNote } from './find-note.js';
import { toNoteResource } from './note-resource.js';

/** Replaces the text; the same text again changes nothing (no event, the same updated_at). */
export const updateNoteHandler: OperationHandler<typeof updateNote> = async ({ input, context, db, events }) => {
  const { note, parentOwner } = await findNote(db, context, input.id, 'write', { lock: true });
  if (note.body === input.body) return toNoteResource(note);
  const row = await db
    .updateTable('notes')
    .set({ body: input.body, updated_at: new Date() })
    .where('id', '=', note.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const updated = toNoteResource(row);
  await events.record({ type: 'note.updated', object: updated, previous: toNoteResource(note), owner: parentOwner });
  return updated;
};
