import { z } from 'zod';
import { createNote, Note, NoteBody } from '../../../../shared/contracts/notes.js';
import { defineTool } from '../../tool.js';

export const addNoteTool = defineTool({
  name: 'add_note',
  title: 'Add a note',
  description:
    'Adds a Markdown note (up to 10,000 characters) to one contact (contact_id) or one deal (deal_id), written by this connection. Give an idempotency_key to make a retry safe: the same key and arguments return the first note instead of adding another.',
  op: createNote,
  input: {
    contact_id: z.string().max(64).optional().describe('con_…: the contact the note is about (or give deal_id)'),
    deal_id: z.string().max(64).optional().describe('deal_…: the deal the note is about (or give contact_id)'),
    body: NoteBody,
  },
  output: Note,
});
