import { Router, type Request, type Response } from 'express';
import { inviteMember, listMembers, removeMember, updateMember, type MemberRecord } from '../../../shared/contracts/members.js';
import { NotFoundError, type ErrorCode } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { listField, pathParam, textField } from '../form-fields.js';
import { noticeFrom } from '../notice.js';
import { confirmPage } from '../pages/confirm-page.js';
import type { MemberForm } from '../pages/member-fields.js';
import { memberEditPage } from '../pages/member-edit-page.js';
import { memberInvitedPage } from '../pages/member-invited-page.js';
import { membersPage } from '../pages/members-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { workspacePath } from '../workspace-url.js';
import { refusalMessage, refusedField } from '../form-refusal.js';

/**
 * Removing a member unsets the owner of every record they owned, each with its event: for a
 * member who owned tens of thousands that outlasts the usual bus deadline, and a 503 while
 * the removal still commits would only confuse.
 */
const REMOVE_MEMBER_TIMEOUT_MS = 60_000;

const NOTICES: Record<string, string> = {
  updated: 'The member’s permissions were changed.',
  removed: 'The member was removed. Their connected agents in this workspace stopped working.',
};

/** Errors a person can fix in the form: shown above it, with what they typed kept. */
/** The member forms' fields as the pages label them, for their refusals. */
const LABELS = { email: 'E-mail', permissions: 'Permissions', visibility: 'Which records they see' };

const FORM_ERRORS: readonly ErrorCode[] = ['validation_failed', 'conflict', 'forbidden'];

function memberForm(req: Request): MemberForm {
  return { email: textField(req, 'email', 300), permissions: listField(req, 'permissions'), visibility: textField(req, 'visibility', 20) };
}

/** Members of the workspace (administrators only): list, invite, change, remove. */
export function membersRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const members = async (req: Request) => (await callWorker(deps.bus, req, listMembers, {})).result.members;
  const memberOf = async (req: Request): Promise<MemberRecord> => {
    const id = pathParam(req, 'userId');
    const member = (await members(req)).find((m) => m.user_id === id);
    if (!member) throw new NotFoundError('member', id);
    return member;
  };
  const showList = async (req: Request, res: Response, extra: { error?: string; errorField?: string | undefined; form?: MemberForm; removeError?: string; status?: number } = {}) => {
    sendPage(res, membersPage({ session: sessionOf(req), members: await members(req), notice: noticeFrom(req, NOTICES), ...extra }), extra.status ?? 200);
  };

  router.get('/', (req, res) => showList(req, res));

  router.post('/', async (req, res) => {
    const form = memberForm(req);
    try {
      const { result } = await callWorker(deps.bus, req, inviteMember, parseWith(inviteMember.input, form));
      sendPage(res, memberInvitedPage(sessionOf(req), result, deps.publicUrl()));
    } catch (error) {
      if (crmErrorIn(error, FORM_ERRORS)) return showList(req, res, { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form, status: HTTP_STATUS[error.code] });
      throw error;
    }
  });

  router.get('/:userId', async (req, res) => sendPage(res, memberEditPage(sessionOf(req), await memberOf(req))));

  router.post('/:userId', async (req, res) => {
    const session = sessionOf(req);
    const member = await memberOf(req);
    const form = { ...memberForm(req), email: member.email };
    try {
      const input = parseWith(updateMember.input, { user_id: member.user_id, permissions: form.permissions, visibility: form.visibility });
      await callWorker(deps.bus, req, updateMember, input);
      // An administrator who gave up their own Configuration may no longer see the list: the overview says what they may do now.
      const gaveUpConfiguration = member.user_id === session.user.id && !input.permissions.includes('configuration');
      res.redirect(303, gaveUpConfiguration ? `${workspacePath(session)}?notice=permissions-changed` : `${workspacePath(session, '/members')}?notice=updated`);
    } catch (error) {
      if (crmErrorIn(error, FORM_ERRORS)) return sendPage(res, memberEditPage(sessionOf(req), member, { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form }), HTTP_STATUS[error.code]);
      throw error;
    }
  });

  router.get('/:userId/remove', async (req, res) => {
    const session = sessionOf(req);
    const member = await memberOf(req);
    const list = workspacePath(session, '/members');
    sendPage(
      res,
      confirmPage({
        session,
        section: 'members',
        title: `Remove ${member.email}?`,
        details: html`<p>${member.user_id === session.user.id ? 'You will lose access to this workspace. ' : ''}${member.email} will no longer see this workspace,
            and every agent they connected to it stops working. API tokens stay: they belong to the workspace.
            Records they own stay, without an owner.</p>`,
        action: `${list}/${member.user_id}/remove`,
        button: 'Remove member',
        cancel: list,
      }),
    );
  });

  router.post('/:userId/remove', async (req, res) => {
    const session = sessionOf(req);
    const userId = pathParam(req, 'userId');
    try {
      await callWorker(deps.bus, req, removeMember, { user_id: userId }, { timeoutMs: REMOVE_MEMBER_TIMEOUT_MS });
    } catch (error) {
      if (crmErrorIn(error, FORM_ERRORS)) return showList(req, res, { removeError: error.message, status: HTTP_STATUS[error.code] });
      throw error;
    }
    res.redirect(303, userId === session.user.id ? '/console' : `${workspacePath(session, '/members')}?notice=removed`);
  });

  return router;
}
