import { z } from 'zod';
import { defineOperation } from '../bus/operation.js';
import { CONTROL_BUT_LINE_BREAKS, CONTROL_BUT_LINE_BREAKS_MESSAGE, Cursor, PageLimit, pageOf, RecordId, Timestamp, userWritten, VISIBLE } from './common.js';
import { Actor } from './events.js';
import { NOTE_READ_SCOPES, NOTE_WRITE_SCOPES } from './note-parents.js';

/**
 * Notes: Markdown text on one contact or one deal. A note takes the scopes of its record
 * (contacts:* for a contact's, deals:* for a deal's) and is visible exactly when its
 * record is, `owned` visibility included; the worker checks both per note.
 */

export const NOTE_BODY_MAX = 10_000;

export const Note = z
  .object({
    object: z.literal('note'),
    id: z.string().describe('note_ followed by an opaque identifier'),
    contact_id: z.string().nullable().describe('The contact the note is on (con_…); null for a deal\'s note'),
    deal_id: z.string().nullable().describe('The deal the note is on (deal_…); null for a contact\'s note'),
    body: z.string().describe(userWritten('Markdown text')),
    author: Actor.describe('Who wrote the note: the token, the connected agent (and its user), the console user or the command line'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Note' });
export type Note = z.infer<typeof Note>;

/**
 * Whether `text` has at most `max` characters, counted as the database (char_length) and
 * JSON Schema's maxLength count them: code points, so an emoji is one, not its two UTF-16 units.
 */
function atMostCharacters(text: string, max: number): boolean {
  if (text.length <= max) return true;
  if (text.length > 2 * max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return false;
  return true;
}

/** Stored as given after trimming, line breaks as LF: 1 to 10,000 characters. */
export const NoteBody = z
  .string()
  // A CRLF (or lone CR) line break is one line break, stored and counted as LF wherever the text came from (the console's form sends CRLF).
  .overwrite((s) => s.replace(/\r\n?/g, '\n'))
  .trim()
  .min(1, 'is required and must not be empty')
  // trim() keeps format characters such as U+200B (zero-width space): a note of only those shows nothing.
  .refine((s) => VISIBLE.test(s), { message: 'must contain visible text, not only spaces or invisible characters' })
  .refine((s) => atMostCharacters(s, NOTE_BODY_MAX), { message: `must be at most ${NOTE_BODY_MAX} characters` })
  // Markdown keeps its line breaks and tabs.
  .refine((s) => !CONTROL_BUT_LINE_BREAKS.test(s), { message: CONTROL_BUT_LINE_BREAKS_MESSAGE })
  .describe('Markdown, 1 to 10,000 characters (trimmed)')
  // The bound the refinement checks, documented where .max() would have put it.
  .meta({ maxLength: NOTE_BODY_MAX });

const Ref = RecordId;
const ContactRef = Ref.describe('con_…: the note is on this contact (give contact_id or deal_id)');
const DealRef = Ref.describe('deal_…: the note is on this deal (give contact_id or deal_id)');

/** The record a note is on: one contact or one deal, never both. */
function exactlyOneParent(value: { contact_id?: string | undefined; deal_id?: string | undefined }, ctx: z.RefinementCtx): void {
  const given = (value.contact_id !== undefined ? 1 : 0) + (value.deal_id !== undefined ? 1 : 0);
  if (given === 1) return;
  ctx.addIssue({
    code: 'custom',
    path: [given === 0 ? 'contact_id' : 'deal_id'],
    message: given === 0 ? 'is required: give contact_id or deal_id' : 'give contact_id or deal_id, not both',
  });
}

const CreateNoteFields = { contact_id: ContactRef.optional(), deal_id: DealRef.optional(), body: NoteBody };

/** The body of POST /v1/notes. */
export const CreateNoteInput = z.strictObject(CreateNoteFields).superRefine(exactlyOneParent).meta({ id: 'CreateNote' });
export type CreateNoteInput = z.infer<typeof CreateNoteInput>;

/** The body of PATCH /v1/notes/{id}: the text only (a note stays on its record). */
export const UpdateNoteFields = z.strictObject({ body: NoteBody }).meta({ id: 'UpdateNote' });

export const NOTE_ORDERS = ['asc', 'desc'] as const;

/** Filters of the note list; each one also travels in links.next. */
export const NoteFilters = z.object({
  contact_id: Ref.optional().describe("Only this contact's notes (con_…)"),
  deal_id: Ref.optional().describe("Only this deal's notes (deal_…)"),
  order: z.enum(NOTE_ORDERS, { error: 'must be asc or desc' }).optional().describe('asc (default): oldest first, like every list; desc: newest first'),
});
export type NoteFilters = z.infer<typeof NoteFilters>;

function atMostOneParent(value: { contact_id?: string | undefined; deal_id?: string | undefined }, ctx: z.RefinementCtx): void {
  if (value.contact_id !== undefined && value.deal_id !== undefined) ctx.addIssue({ code: 'custom', path: ['deal_id'], message: 'filter by contact_id or deal_id, not both' });
}

export const ListNotesInput = z.strictObject({ limit: PageLimit, cursor: Cursor.optional(), ...NoteFilters.shape }).superRefine(atMostOneParent);

const ById = z.strictObject({ id: Ref });

const READ_SCOPES = NOTE_READ_SCOPES;
const WRITE_SCOPES = NOTE_WRITE_SCOPES;

export const createNote = defineOperation({
  worker: 'contacts',
  resource: 'notes',
  verb: 'create',
  scope: WRITE_SCOPES,
  idempotent: true,
  input: CreateNoteInput,
  output: Note,
});

export const listNotes = defineOperation({ worker: 'contacts', resource: 'notes', verb: 'list', readOnly: true, scope: READ_SCOPES, input: ListNotesInput, output: pageOf(Note) });

export const getNote = defineOperation({ worker: 'contacts', resource: 'notes', verb: 'get', readOnly: true, scope: READ_SCOPES, input: ById, output: Note });

export const updateNote = defineOperation({
  worker: 'contacts',
  resource: 'notes',
  verb: 'update',
  destructive: true,
  scope: WRITE_SCOPES,
  idempotent: true,
  input: UpdateNoteFields.extend({ id: Ref }),
  output: Note,
});

export const DeletedNote = z.object({ object: z.literal('note'), id: z.string(), deleted: z.literal(true) }).meta({ id: 'DeletedNote' });

export const deleteNote = defineOperation({ worker: 'contacts', resource: 'notes', verb: 'delete', scope: WRITE_SCOPES, destructive: true, input: ById, output: DeletedNote });
