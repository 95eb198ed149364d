import { createNote, deleteNote, getNote, listNotes, Note, updateNote } from '../../../../shared/contracts/notes.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import { CreateNoteBody, ListNotesQuery, NoteIdParams, UpdateNoteBody } from './validators.js';

const tag = 'Notes';
const SCOPES_FOLLOW =
  "A note takes the scopes of its record: contacts:read / contacts:write for a contact's notes, deals:read / deals:write for a deal's; a note on a record the token cannot see (owned visibility), or on a kind of record it cannot read, is a 404 as an unknown note is.";

export const listNotesEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/notes',
  operationId: 'listNotes',
  summary: 'List notes',
  description: `Notes in creation order (created_at, then id; order=desc for newest first). With contact_id or deal_id, that record's notes; without, every note on a record the token may read. Follow links.next to read each, none twice. ${SCOPES_FOLLOW}`,
  tag,
  op: listNotes,
  query: ListNotesQuery,
  response: listOf(Note, 'NoteList'),
  status: 200,
  errors: ['invalid_cursor', 'not_found'],
});

export const createNoteEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/notes',
  operationId: 'createNote',
  summary: 'Add a note',
  description: `A Markdown note on one contact (contact_id) or one deal (deal_id), written by the token. ${SCOPES_FOLLOW}`,
  tag,
  op: createNote,
  body: CreateNoteBody,
  status: 201,
  errors: ['not_found', 'idempotency_key_reused'],
  location: (note) => `/v1/notes/${note.id}`,
});

export const getNoteEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/notes/{id}',
  operationId: 'getNote',
  summary: 'Retrieve a note',
  description: SCOPES_FOLLOW,
  tag,
  op: getNote,
  params: NoteIdParams,
  status: 200,
  errors: ['not_found'],
});

export const updateNoteEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/notes/{id}',
  operationId: 'updateNote',
  summary: 'Update a note',
  description: `Replaces the text; the note stays on its record and keeps its author. ${SCOPES_FOLLOW}`,
  tag,
  op: updateNote,
  params: NoteIdParams,
  body: UpdateNoteBody,
  status: 200,
  errors: ['not_found', 'idempotency_key_reused'],
});

export const deleteNoteEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/notes/{id}',
  operationId: 'deleteNote',
  summary: 'Delete a note',
  description: `Deletes the note permanently; its note.deleted event keeps it as it was. ${SCOPES_FOLLOW}`,
  tag,
  op: deleteNote,
  params: NoteIdParams,
  status: 200,
  errors: ['not_found'],
});

export const noteEndpoints = [listNotesEndpoint, createNoteEndpoint, getNoteEndpoint, updateNoteEndpoint, deleteNoteEndpoint];
