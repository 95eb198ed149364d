import { Router } from 'express';
import { MCP_SERVERS } from '../../../shared/auth/mcp-servers.js';
import { getGrant, listGrants, revokeGrantById, type ConnectedAgent } from '../../../shared/contracts/grants.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { sessionOf } from '../console-session.js';
import { when } from '../format.js';
import { noticeFrom } from '../notice.js';
import { agentsPage } from '../pages/agents-page.js';
import { revokeRoutes } from './revoke-routes.js';
import { ADMIN_LIST_PAGE_SIZE } from '../list-pager.js';
import { listReturn } from '../list-return.js';
import { PAGE_GONE_NOTICE, pageOrFirst } from '../page-or-first.js';

const NOTICES: Record<string, string> = {
  revoked: 'The agent was disconnected. Its next call is refused, and it cannot refresh its access.',
};

/** The workspace's OAuth grants: an administrator sees and revokes all, a member their own (the worker decides). */
export function agentsRoutes(deps: GatewayDeps): Router {
  const router = Router();

  router.get('/', async (req, res) => {
    const includeRevoked = req.query.revoked === '1';
    const { cursor: asked } = listReturn(req);
    const { page, lost } = await pageOrFirst((c) => callWorker(deps.bus, req, listGrants, { include_revoked: includeRevoked, limit: ADMIN_LIST_PAGE_SIZE, ...(c ? { cursor: c } : {}) }), asked);
    const { result } = page;
    const cursor = lost ? undefined : asked;
    sendPage(
      res,
      agentsPage({ session: sessionOf(req), agents: result.data, total: result.total, nextCursor: result.next_cursor, cursor, includeRevoked, notice: lost ? PAGE_GONE_NOTICE : noticeFrom(req, NOTICES) }),
    );
  });

  revokeRoutes<ConnectedAgent>(router, {
    section: 'agents',
    list: '/agents',
    filterKeys: ['revoked'],
    load: async (req, id) => (await callWorker(deps.bus, req, getGrant, { grant_id: id })).result,
    confirm: (agent, session) => {
      const name = agent.client_name ?? 'this unnamed client';
      return {
        title: `Disconnect ${name}?`,
        details: agent.revoked_at
          ? html`<p>This agent was already disconnected ${when(agent.revoked_at, session)}.</p>`
          : html`<p>${name} (redirecting to ${agent.redirect_host}) uses ${MCP_SERVERS[agent.server].title} as ${agent.user.email}.
              Revoking stops it within seconds; to use it again, someone must connect it again.</p>`,
        button: 'Revoke access',
      };
    },
    revoke: (req, id) => callWorker(deps.bus, req, revokeGrantById, { grant_id: id }),
  });

  return router;
}
