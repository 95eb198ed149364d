import { Router } from 'express';
import { isTokenEnvName } from '../../../shared/auth/mcp-servers.js';
import type { GatewayDeps } from '../../deps.js';
import { sendPage } from '../../pages/session-routes.js';
import { sessionOf } from '../console-session.js';
import { connectAgentPage } from '../pages/connect-agent-page.js';

const DEFAULT_TOKEN_ENV = 'CRM_TOKEN';

export function connectAgentRoute(deps: GatewayDeps): Router {
  const router = Router();
  router.get('/', (req, res) => {
    const asked = typeof req.query.token_env === 'string' ? req.query.token_env.trim().slice(0, 100) : '';
    const valid = asked === '' || isTokenEnvName(asked);
    const page = connectAgentPage({
      session: sessionOf(req),
      baseUrl: deps.publicUrl(),
      tokenEnv: valid && asked !== '' ? asked : DEFAULT_TOKEN_ENV,
      ...(valid ? {} : { error: 'Give the name of an environment variable (letters, digits and _), not the token itself.' }),
    });
    sendPage(res, page, valid ? 200 : 400);
  });
  return router;
}
