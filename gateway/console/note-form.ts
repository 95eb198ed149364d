import type { Request } from 'express';
import { createNote } from '../../shared/contracts/notes.js';
import { callWorker } from '../call-worker.js';
import type { GatewayDeps } from '../deps.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { crmErrorIn } from '../pages/form-error.js';
import { textField } from './form-fields.js';
import { refusalMessage } from './form-refusal.js';

/** What the note form's POST came to: added, or refused with a message to show above the text as typed. */
export type NoteFormOutcome = { added: true } | { added: false; error: string; draft: string; status: number };

/**
 * Adds the note typed into a record page's form, with POST /v1/notes's operation in the
 * member's context (the worker checks the record's scope and visibility); the note's body
 * schema turns the textarea's CRLF line breaks into LF.
 */
export async function addNoteFromForm(deps: GatewayDeps, req: Request, parent: { contact_id: string } | { deal_id: string }): Promise<NoteFormOutcome> {
  // Read whole (the form parser bounds the body): an over-long note is refused, not cut, and
  // comes back as typed, where a cut could even split an emoji in two.
  const draft = textField(req, 'body', Number.POSITIVE_INFINITY);
  try {
    await callWorker(deps.bus, req, createNote, { ...parent, body: draft });
    return { added: true };
  } catch (error) {
    if (crmErrorIn(error, ['validation_failed', 'missing_scope'])) return { added: false, error: refusalMessage(error, { body: 'Note' }), draft, status: HTTP_STATUS[error.code] };
    throw error;
  }
}
