import { Router } from 'express';
import { countContacts } from '../../../shared/contracts/contacts.js';
import { listGrants } from '../../../shared/contracts/grants.js';
import { listMembers } from '../../../shared/contracts/members.js';
import { listPipelines } from '../../../shared/contracts/pipelines.js';
import { listTokens } from '../../../shared/contracts/tokens.js';
import { getWorkspaceSettings } from '../../../shared/contracts/workspace-settings.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { sendPage } from '../../pages/session-routes.js';
import { may } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { noticeFrom } from '../notice.js';
import { overviewPage } from '../pages/overview-page.js';

const TOKENS_SHOWN = 100;

const NOTICES: Record<string, string> = {
  'permissions-changed': 'Your permissions in this workspace were changed: what you may do now is listed below.',
};

/** The workspace at a glance: what is in it, what has access, and what the member may do. */
export function overviewRoute(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/', async (req, res) => {
    const session = sessionOf(req);
    const admin = session.isAdministrator;
    const [contacts, pipelines, agents, tokens, members, settings] = await Promise.all([
      may(session, 'contacts:read') ? callWorker(deps.bus, req, countContacts, {}).then((r) => r.result.count) : null,
      may(session, 'schema:read') ? callWorker(deps.bus, req, listPipelines, {}).then((r) => r.result.data.length) : null,
      callWorker(deps.bus, req, listGrants, { limit: 1 }).then((r) => r.result.total),
      admin ? callWorker(deps.bus, req, listTokens, { limit: TOKENS_SHOWN }).then((r) => r.result) : null,
      admin ? callWorker(deps.bus, req, listMembers, { limit: 1 }).then((r) => r.result.total) : null,
      callWorker(deps.bus, req, getWorkspaceSettings, {}).then((r) => r.result),
    ]);
    sendPage(
      res,
      overviewPage(
        session,
        { contacts, pipelines, agents, tokens: tokens ? tokens.data.length : null, members },
        tokens !== null && tokens.next_cursor !== null,
        settings,
        noticeFrom(req, NOTICES),
      ),
    );
  });
  return router;
}
