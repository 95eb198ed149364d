import express, { Router } from 'express';
import { decideAuthorization, viewConsent } from '../../shared/contracts/oauth.js';
import { CrmError, ValidationError } from '../../shared/errors.js';
import type { GatewayDeps } from '../deps.js';
import { consentPage, SHOWN_WORKSPACE_FIELD } from '../pages/consent-page.js';
import { cookiePolicy, readCookie } from '../pages/cookies.js';
import { csrfToken, verifyCsrf } from '../pages/csrf.js';
import { crmErrorIn } from '../pages/form-error.js';
import { messagePage } from '../pages/message-page.js';
import { withIssuer } from './authorization-response.js';
import { sendPage, signInUrl } from '../pages/session-routes.js';

/** GET shows the consent page for a pending authorization; POST records the decision and sends the browser back to the client. */
export function consentRoutes(deps: GatewayDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '10kb' });
  const cookies = () => cookiePolicy(deps.publicUrl());

  const expired = () =>
    messagePage('This request has expired', 'The authorization request expired or was already answered. Start again from your client.');
  const toSignIn = (requestId: string) => signInUrl(`/oauth/consent?request=${requestId}`);
  // The worker refuses the decision too; this page says what to do instead of a consent form.
  const passwordFirst = () =>
    messagePage('Choose your own password first', 'You still have the temporary password you were given. Change it in the console, then start again from your client.', {
      href: '/console/account',
      text: 'Change your password',
    });

  /** The consent page of a pending request, read again for this session (or the password page when that comes first). */
  const showConsent = async (req: express.Request, res: express.Response, requestId: string, session: string, options: Parameters<typeof consentPage>[2], status: number) => {
    const { result } = await deps.bus.call(viewConsent, { request_id: requestId, session_token: session }, { context: null, requestId: req.requestId });
    if (result.password_change_required) return sendPage(res, passwordFirst(), 403);
    sendPage(res, consentPage(result, csrfToken(req, res, cookies()), options), status);
  };

  router.get('/oauth/consent', async (req, res) => {
    const requestId = typeof req.query.request === 'string' ? req.query.request.slice(0, 100) : '';
    const session = readCookie(req, cookies().session);
    if (!session) return res.redirect(303, toSignIn(requestId));
    try {
      await showConsent(req, res, requestId, session, {}, 200);
    } catch (error) {
      if (error instanceof CrmError && error.code === 'unauthenticated') return res.redirect(303, toSignIn(requestId));
      if (error instanceof CrmError && error.code === 'not_found') return sendPage(res, expired(), 404);
      throw error;
    }
  });

  router.post('/oauth/consent', form, async (req, res) => {
    verifyCsrf(req, cookies());
    const requestId = typeof req.body?.request === 'string' ? req.body.request.slice(0, 100) : '';
    const session = readCookie(req, cookies().session);
    if (!session) return res.redirect(303, toSignIn(requestId));
    const decision = req.body?.decision;
    if (decision !== 'approve' && decision !== 'deny' && decision !== 'review') throw new ValidationError('Choose Approve or Deny.', 'decision');
    const workspaceId = typeof req.body?.workspace_id === 'string' ? req.body.workspace_id : '';
    const shown = req.body?.[SHOWN_WORKSPACE_FIELD];
    // The checkbox of each workspace carries that workspace's id: only the chosen one counts.
    const checked = ([] as unknown[]).concat(req.body?.allow_changes ?? []);
    try {
      // Without script the page cannot swap the list when the dropdown changes: the chosen
      // workspace's permissions are shown first, and only an Approve of what was shown grants.
      // A form without the field (sent twice, or from a page served before it existed) is no proof either.
      if (decision === 'review' || (decision === 'approve' && shown !== workspaceId)) {
        const notice = decision === 'approve' ? 'Nothing is connected yet. These are the permissions in the workspace you chose: approve again to connect.' : undefined;
        return await showConsent(req, res, requestId, session, { shown: workspaceId, notice }, 200);
      }
      const input =
        decision === 'approve'
          ? { decision, request_id: requestId, session_token: session, workspace_id: workspaceId, allow_changes: checked.includes(workspaceId) }
          : { decision, request_id: requestId, session_token: session };
      const { result } = await deps.bus.call(decideAuthorization, input, { context: null, requestId: req.requestId });
      res.redirect(303, withIssuer(result.redirect_to, deps.publicUrl()));
    } catch (error) {
      if (error instanceof CrmError && error.code === 'unauthenticated') return res.redirect(303, toSignIn(requestId));
      if (error instanceof CrmError && error.code === 'not_found') return sendPage(res, expired(), 404);
      if (crmErrorIn(error, ['forbidden', 'validation_failed'])) return await showConsent(req, res, requestId, session, { error: error.message, shown: workspaceId }, 400);
      throw error;
    }
  });

  return router;
}
