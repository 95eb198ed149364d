import type { getNote } from '../../shared/contracts/notes.js';
import type { OperationHandler } from '../runtime/worker-call.js';
import { findNote } from './find-note.js';
import { toNoteResource } from './note-resource.js';

export const getNoteHandler: OperationHandler<typeof getNote> = async ({ input, context, db }) => toNoteResource((await findNote(db, context, input.id, 'read')).note);
