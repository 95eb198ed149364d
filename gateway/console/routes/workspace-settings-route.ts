import { Router, type Request } from 'express';
import { getWorkspaceSettings, updateWorkspaceSettings } from '../../../shared/contracts/workspace-settings.js';
import type { ErrorCode } from '../../../shared/errors.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { textField } from '../form-fields.js';
import { noticeFrom } from '../notice.js';
import { workspaceSettingsPage, type WorkspaceSettingsForm } from '../pages/workspace-settings-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { workspacePath } from '../workspace-url.js';
import { refusalMessage, refusedField } from '../form-refusal.js';

/** The form's fields as the page labels them, for its refusals. */
const LABELS = { time_zone: 'Time zone', default_country: 'Default country for phones' };

const NOTICES: Record<string, string> = { saved: 'The settings were saved.' };

/** Errors a person can fix in the form: shown above it, with what they chose kept. */
const FORM_ERRORS: readonly ErrorCode[] = ['validation_failed', 'forbidden'];

function settingsForm(req: Request): WorkspaceSettingsForm {
  return { time_zone: textField(req, 'time_zone', 100), default_country: textField(req, 'default_country', 10) };
}

/** The workspace's settings (administrators only): time zone and default country, through the same operation as PATCH /v1/workspace. */
export function workspaceSettingsRoute(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);
  const settings = async (req: Request) => (await callWorker(deps.bus, req, getWorkspaceSettings, {})).result;

  router.get('/', async (req, res) => {
    sendPage(res, workspaceSettingsPage(sessionOf(req), await settings(req), { notice: noticeFrom(req, NOTICES) }));
  });

  router.post('/', async (req, res) => {
    const form = settingsForm(req);
    try {
      const input = parseWith(updateWorkspaceSettings.input, { time_zone: form.time_zone, default_country: form.default_country === '' ? null : form.default_country });
      await callWorker(deps.bus, req, updateWorkspaceSettings, input);
      res.redirect(303, `${workspacePath(sessionOf(req), '/settings')}?notice=saved`);
    } catch (error) {
      if (crmErrorIn(error, FORM_ERRORS)) {
        return sendPage(res, workspaceSettingsPage(sessionOf(req), await settings(req), { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form }), HTTP_STATUS[error.code]);
      }
      throw error;
    }
  });
  return router;
}
