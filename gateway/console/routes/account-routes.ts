import { Router } from 'express';
import { changePassword } from '../../../shared/contracts/sessions.js';
import { ValidationError } from '../../../shared/errors.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage, setSessionCookie } from '../../pages/session-routes.js';
import { consoleHome, sessionOf } from '../console-session.js';
import { textField } from '../form-fields.js';
import { noticeFrom } from '../notice.js';
import { accountPage } from '../pages/account-page.js';
import { clientAddressOf, tooManyAttempts } from '../../pages/failed-attempts.js';

const NOTICES: Record<string, string> = {
  'password-changed': 'Your password was changed, and your other sessions ended.',
};

/** /console/account: the user's workspaces and their password (not tied to a workspace). */
export function accountRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/', (req, res) => {
    sendPage(res, accountPage({ session: sessionOf(req), notice: noticeFrom(req, NOTICES) }));
  });

  router.post('/password', async (req, res) => {
    const session = sessionOf(req);
    const input = {
      session_token: session.sessionToken,
      current_password: textField(req, 'current_password', 200),
      new_password: textField(req, 'new_password', 300),
      ip: clientAddressOf(req),
    };
    try {
      if (input.new_password !== textField(req, 'repeat_password', 300)) throw new ValidationError('The two new passwords differ.');
      // The bus client validates the input (a too-short password is a validation_failed like any other).
      const { result } = await deps.bus.call(changePassword, input, { context: null, requestId: req.requestId });
      // The session was replaced: the browser carries on with the new one.
      setSessionCookie(res, deps.publicUrl(), result.session_token);
    } catch (error) {
      // The current-password check counts like a sign-in, and is refused in the same words.
      if (crmErrorIn(error, ['rate_limited'])) return sendPage(res, accountPage({ session, error: tooManyAttempts(res, error) }), 429);
      if (crmErrorIn(error, ['validation_failed', 'wrong_password'])) {
        const message = error.message.replace(/^new_password: /, 'New password: ');
        return sendPage(res, accountPage({ session, error: message }), HTTP_STATUS[error.code] === 401 ? 400 : HTTP_STATUS[error.code]);
      }
      throw error;
    }
    // A user who had to replace a temporary password goes on into the console.
    res.redirect(303, session.passwordChangeRequired ? consoleHome(session) : '/console/account?notice=password-changed');
  });

  return router;
}
