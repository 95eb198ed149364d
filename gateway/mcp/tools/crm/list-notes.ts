import { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '../../../../shared/contracts/common.js';
import { listNotes, Note, NOTE_ORDERS } from '../../../../shared/contracts/notes.js';
import { definePageTool } from '../../tool.js';
import { PageInfo, PagingInput } from '../list-page.js';

export const listNotesTool = definePageTool({
  name: 'list_notes',
  title: 'List notes',
  description:
    "The notes of one contact (contact_id) or one deal (deal_id), oldest first (order: desc for newest first), each with its author and time; without either, every note on a record this connection may read. Follow next_cursor for more.",
  op: listNotes,
  input: {
    contact_id: z.string().max(64).optional().describe('con_…'),
    deal_id: z.string().max(64).optional().describe('deal_…'),
    order: z.enum(NOTE_ORDERS).optional().describe('asc (default): oldest first; desc: newest first'),
    ...PagingInput,
  },
  output: z.object({ notes: z.array(Note), ...PageInfo }),
  opInput: ({ limit, ...filters }) => ({ ...filters, limit: limit ?? DEFAULT_PAGE_SIZE }),
  rows: 'notes',
});
