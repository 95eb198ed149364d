import type { Selectable } from 'kysely';
import type { Actor } from '../../shared/contracts/events.js';
import type { Note } from '../../shared/contracts/notes.js';
import { isoTimestamp, type CrmDatabase } from '../../shared/db/sql.js';

export type NoteRow = Selectable<CrmDatabase['notes']>;

/** The API shape of a note. */
export function toNoteResource(n: NoteRow): Note {
  return {
    object: 'note',
    id: n.id,
    contact_id: n.contact_id,
    deal_id: n.deal_id,
    body: n.body,
    author: n.author as Actor,
    created_at: isoTimestamp(n.created_at),
    updated_at: isoTimestamp(n.updated_at),
  };
}
