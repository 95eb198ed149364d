import { Router } from 'express';
import { MCP_SERVERS } from '../../../shared/auth/mcp-servers.js';
import { getGrant, listGrants, revokeGrantById } from '../../../shared/contracts/grants.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { workspacePath } from '../console-layout.js';
import { sessionOf } from '../console-session.js';
import { pathParam } from '../form-fields.js';
import { when } from '../format.js';
import { agentsPage } from '../pages/agents-page.js';
import { confirmPage } from '../pages/confirm-page.js';

const NOTICES: Record<string, string> = {
  revoked: 'The agent was disconnected. Its next call is refused, and it cannot refresh its access.',
};

/** The workspace's OAuth grants: an administrator sees and revokes all, a member their own (the worker decides). */
export function agentsRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const includeRevoked = req.query.revoked === '1';
    const { result } = await callWorker(deps.bus, req, listGrants, { include_revoked: includeRevoked });
    const notice = typeof req.query.notice === 'string' ? NOTICES[req.query.notice] : undefined;
    sendPage(res, agentsPage({ session: sessionOf(req), agents: result.agents, includeRevoked, ...(notice ? { notice } : {}) }));
  });

  router.get('/:grantId/revoke', async (req, res) => {
    const session = sessionOf(req);
    const { result: agent } = await callWorker(deps.bus, req, getGrant, { grant_id: pathParam(req, 'grantId') });
    const list = workspacePath(session, '/agents');
    const name = agent.client_name ?? 'this unnamed client';
    sendPage(
      res,
      confirmPage({
        session,
        section: 'agents',
        title: `Disconnect ${name}?`,
        details: agent.revoked_at
          ? html`<p>This agent was already disconnected ${when(agent.revoked_at)}.</p>`
          : html`<p>${name} (redirecting to ${agent.redirect_host}) uses ${MCP_SERVERS[agent.server].title} as ${agent.user.email}.
              Revoking stops it within seconds; to use it again, someone must connect it again.</p>`,
        action: `${list}/${agent.id}/revoke`,
        button: 'Revoke access',
        cancel: list,
      }),
    );
  });

  router.post('/:grantId/revoke', async (req, res) => {
    await callWorker(deps.bus, req, revokeGrantById, { grant_id: pathParam(req, 'grantId') });
    res.redirect(303, `${workspacePath(sessionOf(req), '/agents')}?notice=revoked`);
  });

  return router;
}
