import { Router } from 'express';
import { changePassword } from '../../../shared/contracts/sessions.js';
import { CrmError, validationErrorFrom } from '../../../shared/errors.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { sendPage } from '../../pages/session-routes.js';
import { consoleHome, sessionOf } from '../console-session.js';
import { textField } from '../form-fields.js';
import { accountPage } from '../pages/account-page.js';

/** /console/account: the user's workspaces and their password (not tied to a workspace). */
export function accountRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/', (req, res) => {
    const notice = req.query.notice === 'password-changed' ? 'Your password was changed, and your other sessions ended.' : undefined;
    sendPage(res, accountPage({ session: sessionOf(req), ...(notice ? { notice } : {}) }));
  });

  router.post('/password', async (req, res) => {
    const session = sessionOf(req);
    const input = {
      session_token: session.sessionToken,
      current_password: textField(req, 'current_password', 200),
      new_password: textField(req, 'new_password', 300),
    };
    try {
      if (input.new_password !== textField(req, 'repeat_password', 300)) throw new CrmError('validation_failed', 'The two new passwords differ.');
      const parsed = changePassword.input.safeParse(input);
      if (!parsed.success) throw validationErrorFrom(parsed.error);
      await deps.bus.call(changePassword, parsed.data, { context: null, requestId: req.requestId });
    } catch (error) {
      if (error instanceof CrmError && (error.code === 'validation_failed' || error.code === 'wrong_password')) {
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
