import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { NotFoundError } from '../../shared/errors.js';
import type { FailedAuthLimit } from '../auth/failed-auth-limit.js';
import type { GatewayDeps } from '../deps.js';
import { cookiePolicy } from '../pages/cookies.js';
import { verifyCsrf } from '../pages/csrf.js';
import { staticAsset } from '../pages/static-asset.js';
import { limitByIp, limitByKey } from '../rate-limit/rate-limit-middleware.js';
import { NAV } from './console-layout.js';
import { consoleErrorHandler } from './console-error-handler.js';
import { CONSOLE_SCRIPT } from './console-script.js';
import { consoleHome, consoleSession, membershipAccess, sessionOf } from './console-session.js';
import { accountRoutes } from './routes/account-routes.js';
import { activityRoute } from './routes/activity-route.js';
import { agentsRoutes } from './routes/agents-routes.js';
import { connectAgentRoute } from './routes/connect-agent-route.js';
import { contactNewRoute } from './routes/contact-new-route.js';
import { contactRoute } from './routes/contact-route.js';
import { contactsRoute } from './routes/contacts-route.js';
import { dealEditRoute } from './routes/deal-edit-route.js';
import { dealNewRoute } from './routes/deal-new-route.js';
import { dealRoute } from './routes/deal-route.js';
import { dealsRoute } from './routes/deals-route.js';
import { membersRoutes } from './routes/members-routes.js';
import { overviewRoute } from './routes/overview-route.js';
import { pipelinesRoutes } from './routes/pipelines-routes.js';
import { customFieldsRoutes } from './routes/custom-fields-routes.js';
import { tokensRoutes } from './routes/tokens-routes.js';
import { webhookEndpointRoutes } from './routes/webhook-endpoint-routes.js';
import { webhooksRoutes } from './routes/webhooks-routes.js';
import { workspaceSettingsRoute } from './routes/workspace-settings-route.js';
import { workspaceUrl } from './workspace-url.js';

/**
 * Every console form is urlencoded and carries the CSRF token; checked before any route sees it.
 * The limit fits a note of 10,000 characters however it is encoded (up to 12 bytes a character),
 * and the fields a new record's form with the 100 custom field values a record may hold.
 */
const parseForm = express.urlencoded({ extended: false, limit: '128kb', parameterLimit: 200 });

function checkCsrf(deps: GatewayDeps) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    // A mismatch throws a 403, which express 5 hands to the console's error handler.
    verifyCsrf(req, cookiePolicy(deps.publicUrl()));
    next();
  };
}

/**
 * The admin console under /console: server-rendered pages, each one scoped to the
 * workspace in its URL and to the member's permissions there, every action a bus call
 * like any other (the workers check again).
 */
export function consoleRoutes(deps: GatewayDeps, failedAuth: FailedAuthLimit | null): Router {
  const router = Router();
  router.get('/assets/console.js', staticAsset('application/javascript', CONSOLE_SCRIPT));

  const pages = Router();
  pages.use(consoleSession(deps, failedAuth));
  pages.use(limitByKey(deps.rateLimits.session, (req) => sessionOf(req).user.id));
  // The password change checks the current password: it shares the sign-in form's per-IP limit.
  pages.post('/account/password', limitByIp(deps.rateLimits.signIn));
  pages.post('/{*path}', parseForm, checkCsrf(deps));

  pages.get('/', (req, res) => res.redirect(303, consoleHome(sessionOf(req))));
  // The workspace switcher is a GET form, so it works without script. The same section in
  // the other workspace, if the member's permissions there show it; else its overview.
  pages.get('/switch', (req, res) => {
    const session = sessionOf(req);
    const target = session.memberships.find((m) => m.workspace_id === req.query.workspace);
    if (!target) return res.redirect(303, consoleHome(session));
    const there = { ...session, ...membershipAccess(target) };
    const section = NAV.find((item) => item.section === req.query.section && item.visible(there));
    res.redirect(303, workspaceUrl(target.workspace_id, section?.path));
  });
  pages.use('/account', accountRoutes(deps));

  const workspace = '/w/:workspaceId';
  pages.use(`${workspace}/contacts`, contactsRoute(deps));
  // Before a record's own pages: /contacts/new and /deals/new are no record's id.
  pages.use(`${workspace}/contacts`, contactNewRoute(deps));
  pages.use(`${workspace}/contacts`, contactRoute(deps));
  pages.use(`${workspace}/deals`, dealsRoute(deps));
  pages.use(`${workspace}/deals`, dealNewRoute(deps));
  pages.use(`${workspace}/deals`, dealRoute(deps));
  pages.use(`${workspace}/deals`, dealEditRoute(deps));
  pages.use(`${workspace}/activity`, activityRoute(deps));
  pages.use(`${workspace}/connect`, connectAgentRoute(deps));
  pages.use(`${workspace}/agents`, agentsRoutes(deps));
  pages.use(`${workspace}/tokens`, tokensRoutes(deps));
  pages.use(`${workspace}/webhooks`, webhooksRoutes(deps));
  pages.use(`${workspace}/webhooks`, webhookEndpointRoutes(deps));
  pages.use(`${workspace}/members`, membersRoutes(deps));
  pages.use(`${workspace}/settings`, workspaceSettingsRoute(deps));
  pages.use(`${workspace}/pipelines`, pipelinesRoutes(deps));
  pages.use(`${workspace}/fields`, customFieldsRoutes(deps));
  pages.use(workspace, overviewRoute(deps));
  pages.use(() => {
    throw new NotFoundError('page');
  });
  pages.use(consoleErrorHandler(deps.log));

  router.use('/console', pages);
  return router;
}
