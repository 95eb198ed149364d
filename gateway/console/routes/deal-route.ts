import { Router, type Request, type Response } from 'express';
import { getContact } from '../../../shared/contracts/contacts.js';
import { getDeal, updateDeal } from '../../../shared/contracts/deals.js';
import { NotFoundError } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage } from '../../pages/session-routes.js';
import { may } from '../console-layout.js';
import { sessionOf, type ConsoleSession } from '../console-session.js';
import { pathParam, textField } from '../form-fields.js';
import { refusalMessage } from '../form-refusal.js';
import { archivedStageMoveInConsole } from '../stage-refusal.js';
import { noticeFrom } from '../notice.js';
import { parseWith } from '../../validation.js';
import { workspaceSchema } from '../workspace-schema.js';
import { addNoteFromForm } from '../note-form.js';
import { contactName } from '../pages/contact-page.js';
import { customFieldLabels } from '../custom-field-labels.js';
import { dealPage } from '../pages/deal-page.js';
import { recordEvents } from '../record-events.js';
import { recordNotes } from '../record-notes.js';
import { recordPagePosition } from '../record-page-position.js';
import { workspacePath } from '../workspace-url.js';
import { recordValueNames } from '../record-value-names.js';

const NOTICES: Record<string, string> = { moved: 'The deal was moved.', created: 'The deal was created.', saved: 'The deal was saved.' };
/** The stage form's field as the page labels it, for its refusals. */
const LABELS = { stage_id: 'Stage' };
const MOVED_MEANWHILE = 'Stage: someone else moved this deal meanwhile; the list shows the stage it is in now. Nothing was moved: choose the stage again to move it.';

/** The deal's contact by name, or null when the member may not read it (the page shows the id). */
async function contactNameOf(deps: GatewayDeps, req: Request, session: ConsoleSession, contactId: string | null): Promise<string | null> {
  if (contactId === null || !may(session, 'contacts:read')) return null;
  try {
    return contactName((await callWorker(deps.bus, req, getContact, { id: contactId })).result);
  } catch (error) {
    if (crmErrorIn(error, ['not_found'])) return null;
    throw error;
  }
}

/**
 * One deal, its notes and its history, read with GET /v1/deals/{id}'s operation in the
 * member's context: a deal they may not see is a 404, and so is a deleted one. A member who
 * may write deals adds notes with the form on the page.
 */
export function dealRoute(deps: GatewayDeps): Router {
  const router = Router();

  const show = async (req: Request, res: Response, refused: { noteForm?: { error: string; draft: string; status: number }; stageForm?: { error: string; status: number } } = {}) => {
    const session = sessionOf(req);
    const id = pathParam(req, 'dealId');
    if (!may(session, 'deals:read')) throw new NotFoundError('deal', id);
    const mayMove = may(session, 'deals:write') && may(session, 'schema:read');
    const [{ result: deal }, notes, history, names, fieldLabel, pipelines] = await Promise.all([
      callWorker(deps.bus, req, getDeal, { id }),
      recordNotes(deps, req, { deal_id: id }),
      recordEvents(deps, req, id),
      recordValueNames(deps, req, session),
      customFieldLabels(deps, req, 'deal'),
      mayMove ? workspaceSchema(deps, req).then((schema) => schema.pipelines) : [],
    ]);
    const contact = await contactNameOf(deps, req, session, deal.contact_id);
    const page = dealPage({
      session,
      deal,
      contactName: contact,
      ...history,
      names,
      fieldLabel,
      position: recordPagePosition(req),
      notes: { ...notes, mayWrite: may(session, 'deals:write'), ...(refused.noteForm ?? {}) },
      movableIn: pipelines.find((p) => p.id === deal.pipeline_id) ?? null,
      ...(refused.stageForm ? { stageError: refused.stageForm.error } : {}),
      notice: noticeFrom(req, NOTICES),
    });
    sendPage(res, page, refused.noteForm?.status ?? refused.stageForm?.status ?? 200);
  };

  router.get('/:dealId', (req, res) => show(req, res));

  router.post('/:dealId/notes', async (req, res) => {
    const id = pathParam(req, 'dealId');
    const outcome = await addNoteFromForm(deps, req, { deal_id: id });
    if (!outcome.added) return show(req, res, { noteForm: outcome });
    res.redirect(303, `${workspacePath(sessionOf(req), `/deals/${encodeURIComponent(id)}`)}#notes`);
  });

  // A stage archived or deleted since the page was read is refused with its reason beside the list;
  // a deal gone meanwhile is the deal's 404, as its page would be.
  router.post('/:dealId/stage', async (req, res) => {
    const id = pathParam(req, 'dealId');
    try {
      // The stage the page showed: a move someone made since is refused (409), not silently undone.
      const read = textField(req, 'read_stage_id', 100);
      const expected = read === '' ? {} : { expected_values: { stage_id: read } };
      await callWorker(deps.bus, req, updateDeal, parseWith(updateDeal.input, { id, stage_id: textField(req, 'stage_id', 100), ...expected }));
    } catch (error) {
      if (crmErrorIn(error, ['conflict']) && error.details.param === 'stage_id') {
        return show(req, res, { stageForm: { error: MOVED_MEANWHILE, status: HTTP_STATUS.conflict } });
      }
      const stageRefused = crmErrorIn(error, ['validation_failed', 'missing_scope']) || (crmErrorIn(error, ['not_found']) && error.details.param === 'stage_id');
      if (stageRefused) return show(req, res, { stageForm: { error: archivedStageMoveInConsole(error, LABELS.stage_id, sessionOf(req).isAdministrator) ?? refusalMessage(error, LABELS), status: HTTP_STATUS[error.code] } });
      throw error;
    }
    // Redirected, so a reload or Back does not post the move again.
    res.redirect(303, `${workspacePath(sessionOf(req), `/deals/${encodeURIComponent(id)}`)}?notice=moved`);
  });
  return router;
}
