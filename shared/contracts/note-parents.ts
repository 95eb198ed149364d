import type { Scope } from '../auth/scopes.js';

/**
 * The records a note can be on, the field that names one, and the scopes of its notes:
 * a note takes the scopes of its record (decisions.md). Declared once for the operations,
 * the worker's checks and the visibility of note events.
 */
export const NOTE_PARENTS = {
  contact: { field: 'contact_id', read: 'contacts:read', write: 'contacts:write' },
  deal: { field: 'deal_id', read: 'deals:read', write: 'deals:write' },
} as const satisfies Record<string, { field: string; read: Scope; write: Scope }>;
export type NoteParentKind = keyof typeof NOTE_PARENTS;

export const NOTE_PARENT_KINDS = Object.keys(NOTE_PARENTS) as NoteParentKind[];

/** Either record's scope lets a call through the gateway; the worker then requires the note's own record's. */
export const NOTE_READ_SCOPES = NOTE_PARENT_KINDS.map((kind) => NOTE_PARENTS[kind].read);
export const NOTE_WRITE_SCOPES = NOTE_PARENT_KINDS.map((kind) => NOTE_PARENTS[kind].write);
