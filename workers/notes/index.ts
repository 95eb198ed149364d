import { createNote, deleteNote, getNote, listNotes, updateNote } from '../../shared/contracts/notes.js';
import { handle, type HandlerBinding } from '../runtime/worker-call.js';
import { createNoteHandler } from './create-note.js';
import { deleteNoteHandler } from './delete-note.js';
import { getNoteHandler } from './get-note.js';
import { listNotesHandler } from './list-notes.js';
import { updateNoteHandler } from './update-note.js';

/** Notes on contacts and deals, served by the contacts worker (subjects `<ns>.contacts.notes.*`). */
export const noteHandlers: HandlerBinding[] = [
  handle(createNote, createNoteHandler),
  handle(listNotes, listNotesHandler),
  handle(getNote, getNoteHandler),
  handle(updateNote, updateNoteHandler),
  handle(deleteNote, deleteNoteHandler),
];
