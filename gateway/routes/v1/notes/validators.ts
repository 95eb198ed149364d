import { z } from 'zod';
import { Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { CreateNoteInput, NoteFilters, UpdateNoteFields } from '../../../../shared/contracts/notes.js';
import { pathId } from '../../../api/path-id.js';

export const NoteIdParams = z.strictObject({ id: pathId('note_') });

export const ListNotesQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional().describe('Taken from links.next'),
  ...NoteFilters.shape,
});

export const CreateNoteBody = CreateNoteInput;
export const UpdateNoteBody = UpdateNoteFields;
