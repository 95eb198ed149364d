import { Router, type Request, type Response } from 'express';
import { getMember, inviteMember, listMembers, MemberEmailSearch, removeMember, updateMember, type MemberRecord } from '../../../shared/contracts/members.js';
import type { ErrorCode } from '../../../shared/errors.js';
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
import { ADMIN_LIST_PAGE_SIZE } from '../list-pager.js';
import { listReturn, withQuery } from '../list-return.js';
import { PAGE_GONE_NOTICE, pageOrFirst } from '../page-or-first.js';

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

/** The list's query a row's action carries back to it, with the cursor. */
const FILTER_KEYS = ['search'] as const;

const FORM_ERRORS: readonly ErrorCode[] = ['validation_failed', 'conflict', 'forbidden'];

function memberForm(req: Request): MemberForm {
  return { email: textField(req, 'email', 300), permissions: listField(req, 'permissions'), visibility: textField(req, 'visibility', 20) };
}

/**
 * The list's search (`?search=`), trimmed; blank is none. Not cut to length: one too long is
 * refused by members.list's input, as a 400, rather than silently searched for in part.
 */
function searchOf(req: Request): string | undefined {
  const value = req.query.search;
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Members of the workspace (administrators only): list, invite, change, remove. */
export function membersRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const memberOf = async (req: Request): Promise<MemberRecord> => (await callWorker(deps.bus, req, getMember, { user_id: pathParam(req, 'userId') })).result;
  /** The page of members the request names (its search and cursor), or the first. */
  const showList = async (req: Request, res: Response, extra: { error?: string; errorField?: string | undefined; form?: MemberForm; removeError?: string; status?: number } = {}) => {
    const typed = searchOf(req);
    const listed = (search: string | undefined, cursor: string | undefined) =>
      pageOrFirst((c) => callWorker(deps.bus, req, listMembers, parseWith(listMembers.input, { limit: ADMIN_LIST_PAGE_SIZE, ...(search ? { email_contains: search } : {}), ...(c ? { cursor: c } : {}) })), cursor);
    // A search refused (too long for the form's own limit, typed into the address; or by a tokens
    // worker of the release before, which has no search) comes back in its field with the reason,
    // over the list of everyone, as other console filters do.
    let searchError = typed === undefined ? undefined : MemberEmailSearch.safeParse(typed).error?.issues[0]?.message;
    const { cursor: asked } = listReturn(req, FILTER_KEYS);
    let listing: Awaited<ReturnType<typeof listed>>;
    try {
      listing = await listed(searchError === undefined ? typed : undefined, searchError === undefined ? asked : undefined);
    } catch (error) {
      if (typed === undefined || searchError !== undefined || !crmErrorIn(error, ['validation_failed'])) throw error;
      searchError = 'cannot be searched for yet: the service is being updated, try again in a few minutes';
      listing = await listed(undefined, undefined);
    }
    const { result } = listing.page;
    const search = searchError === undefined ? typed : undefined;
    const cursor = listing.lost || searchError !== undefined ? undefined : asked;
    sendPage(
      res,
      membersPage({
        session: sessionOf(req),
        members: result.data,
        total: result.total,
        search,
        ...(searchError === undefined ? {} : { searchRefused: { typed: typed ?? '', reason: `E-mail contains: ${searchError}.` } }),
        nextCursor: result.next_cursor,
        cursor,
        notice: listing.lost ? PAGE_GONE_NOTICE : noticeFrom(req, NOTICES),
        ...extra,
      }),
      searchError === undefined ? (extra.status ?? 200) : 400,
    );
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

  router.get('/:userId', async (req, res) => sendPage(res, memberEditPage(sessionOf(req), await memberOf(req), { back: listReturn(req, FILTER_KEYS) })));

  router.post('/:userId', async (req, res) => {
    const session = sessionOf(req);
    const member = await memberOf(req);
    const form = { ...memberForm(req), email: member.email };
    try {
      const input = parseWith(updateMember.input, { user_id: member.user_id, permissions: form.permissions, visibility: form.visibility });
      await callWorker(deps.bus, req, updateMember, input);
      // An administrator who gave up their own Configuration may no longer see the list: the overview says what they may do now.
      const gaveUpConfiguration = member.user_id === session.user.id && !input.permissions.includes('configuration');
      // Back to the page of the list the member was changed from.
      res.redirect(303, gaveUpConfiguration ? `${workspacePath(session)}?notice=permissions-changed` : withQuery(workspacePath(session, '/members'), { ...listReturn(req, FILTER_KEYS), notice: 'updated' }));
    } catch (error) {
      if (crmErrorIn(error, FORM_ERRORS)) {
        return sendPage(res, memberEditPage(sessionOf(req), member, { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form, back: listReturn(req, FILTER_KEYS) }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
  });

  router.get('/:userId/remove', async (req, res) => {
    const session = sessionOf(req);
    const member = await memberOf(req);
    const list = workspacePath(session, '/members');
    const back = listReturn(req, FILTER_KEYS);
    sendPage(
      res,
      confirmPage({
        session,
        section: 'members',
        title: `Remove ${member.email}?`,
        details: html`<p>${member.user_id === session.user.id ? 'You will lose access to this workspace. ' : ''}${member.email} will no longer see this workspace,
            and every agent they connected to it stops working. API tokens stay: they belong to the workspace.
            Records they own stay, without an owner.</p>`,
        action: withQuery(`${list}/${member.user_id}/remove`, back),
        button: 'Remove member',
        cancel: withQuery(list, back),
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
    // Back to the page the member was removed from: its cursor names the row before it, which stays.
    res.redirect(303, userId === session.user.id ? '/console' : withQuery(workspacePath(session, '/members'), { ...listReturn(req, FILTER_KEYS), notice: 'removed' }));
  });

  return router;
}
