import { Router, type Request, type Response } from 'express';
import { getContact } from '../../../shared/contracts/contacts.js';
import { NotFoundError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { sendPage } from '../../pages/session-routes.js';
import { may } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { pathParam } from '../form-fields.js';
import { addNoteFromForm } from '../note-form.js';
import { customFieldLabels } from '../custom-field-labels.js';
import { contactPage } from '../pages/contact-page.js';
import { recordEvents } from '../record-events.js';
import { recordNotes } from '../record-notes.js';
import { recordPagePosition } from '../record-page-position.js';
import { workspacePath } from '../workspace-url.js';
import { recordValueNames } from '../record-value-names.js';

/**
 * One contact, its notes and its history, read with GET /v1/contacts/{id}'s operation in the
 * member's context: a contact they may not see (another owner's, for an `owned` member) is a
 * 404. A member who may write contacts adds notes with the form on the page.
 */
export function contactRoute(deps: GatewayDeps): Router {
  const router = Router();

  const show = async (req: Request, res: Response, noteForm: { error: string; draft: string; status: number } | null = null) => {
    const session = sessionOf(req);
    const id = pathParam(req, 'contactId');
    // Without contacts:read the contact does not exist for this member, as for REST's owned visibility.
    if (!may(session, 'contacts:read')) throw new NotFoundError('contact', id);
    const [{ result: contact }, notes, history, names, fieldLabel] = await Promise.all([
      callWorker(deps.bus, req, getContact, { id }),
      recordNotes(deps, req, { contact_id: id }),
      recordEvents(deps, req, id),
      recordValueNames(deps, req, session),
      customFieldLabels(deps, req, 'contact'),
    ]);
    const page = contactPage({ session, contact, ...history, names, fieldLabel, position: recordPagePosition(req), notes: { ...notes, mayWrite: may(session, 'contacts:write'), ...(noteForm ?? {}) } });
    sendPage(res, page, noteForm?.status ?? 200);
  };

  router.get('/:contactId', (req, res) => show(req, res));

  router.post('/:contactId/notes', async (req, res) => {
    const id = pathParam(req, 'contactId');
    const outcome = await addNoteFromForm(deps, req, { contact_id: id });
    if (!outcome.added) return show(req, res, outcome);
    res.redirect(303, `${workspacePath(sessionOf(req), `/contacts/${encodeURIComponent(id)}`)}#notes`);
  });
  return router;
}
