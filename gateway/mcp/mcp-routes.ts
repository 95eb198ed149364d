import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import { whoAmI } from '../../shared/contracts/whoami.js';
import type { McpServerKey } from '../../shared/contracts/oauth.js';
import { InvalidJsonError, MethodNotAllowedError, RouteNotFoundError } from '../../shared/errors.js';
import type { ApiTokenAuthenticator } from '../auth/authenticate-api-token.js';
import type { GatewayDeps } from '../deps.js';
import { fromBodyParser } from '../errors/error-handler.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { restErrorBody } from '../errors/rest-error-body.js';
import type { AccessTokenVerifier } from '../oauth/access-token-verifier.js';
import { refuseProtoKey, RESERVED_KEY_MESSAGE } from '../middlewares/json-body.js';
import { allowedHosts } from './allowed-hosts.js';
import { authenticateMcp } from './authenticate-mcp.js';
import { resourceMetadataUrl, sendBearerChallenge } from './bearer-challenge.js';
import { buildMcpServer } from './build-mcp-server.js';
import { stepUpChallenge } from './scope-step-up.js';
import { serverInstructions } from './server-instructions.js';
import { checkJsonRpc } from './check-json-rpc.js';
import { sendJsonRpcError } from './json-rpc-error.js';
import { answerToolCallDirectly } from './direct-tool-call.js';
import { toolCall, type ToolDefinition } from './tool.js';
import { FEATURES } from './features/index.js';
import { CRM_TOOLS } from './tools/crm/index.js';
import { STUDIO_TOOLS } from './tools/studio/index.js';

const CATALOGUES: Record<McpServerKey, readonly ToolDefinition[]> = { crm: CRM_TOOLS, studio: STUDIO_TOOLS };

/**
 * A body that is not JSON is a JSON-RPC parse error, as the protocol expects (JSON that is not
 * an object is checkJsonRpc's -32600: hence `strict: false`); a body too large, in another
 * charset or not decompressing is refused in JSON-RPC's shape too, as the SDK's transport does.
 */
const bodyError: ErrorRequestHandler = (error, _req, res, next) => {
  // A `__proto__` key is refused while parsing: say so, rather than call valid JSON a parse error without a reason.
  const reservedKey = (error as { message?: unknown }).message === RESERVED_KEY_MESSAGE;
  if ((error as { type?: string }).type === 'entity.parse.failed') return sendJsonRpcError(res, new InvalidJsonError(reservedKey ? RESERVED_KEY_MESSAGE : 'Parse error'));
  const refusal = fromBodyParser(error);
  if (!refusal) return next(error);
  sendJsonRpcError(res, refusal);
};

/**
 * The two tool servers, stateless Streamable HTTP: every POST gets a fresh server and
 * transport, so any gateway replica can answer any request. There is no server-to-client
 * stream (GET) and no session to end (DELETE).
 */
export function mcpRoutes(deps: GatewayDeps, tokens: ApiTokenAuthenticator, verifier: AccessTokenVerifier, rateLimit: RequestHandler): Router {
  const router = Router();
  const hostCheck = allowedHosts(deps.publicUrl, deps.config.allowedHosts);

  for (const key of Object.keys(MCP_SERVERS) as McpServerKey[]) {
    const def = MCP_SERVERS[key];
    const auth = authenticateMcp(key, deps.publicUrl, tokens, verifier);
    router.post(def.path, hostCheck, auth, rateLimit, express.json({ limit: deps.config.bodyLimit, reviver: refuseProtoKey, strict: false }), bodyError, async (req: Request, res: Response) => {
      if (!req.credential) return;
      const refusal = checkJsonRpc(req.body);
      if (refusal) {
        res.status(refusal.status).json(refusal.body);
        return;
      }
      const challenge = await stepUpChallenge(req, def, CATALOGUES[key], deps.bus);
      if (challenge) return sendBearerChallenge(res, challenge.error, resourceMetadataUrl(deps.publicUrl(), def), challenge.scope);
      const call = toolCall(deps.bus, req.credential, req.requestId);
      if (await answerToolCallDirectly(req, res, def, CATALOGUES[key], call, { validateReplies: deps.bus.validateReplies })) return;
      // Instructions travel only in the initialize answer: only then is the workspace's time zone worth a call.
      const initializing = (req.body as { method?: unknown } | undefined)?.method === 'initialize';
      const timeZone = initializing ? (await call.run(whoAmI, {})).time_zone : undefined;
      const server = buildMcpServer(def, CATALOGUES[key], FEATURES[key], call, { validateReplies: deps.bus.validateReplies, instructions: serverInstructions(def, new Date(), timeZone) });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    });
    router.all(def.path, hostCheck, (_req, res) => {
      sendJsonRpcError(res.set('Allow', 'POST'), new MethodNotAllowedError('Method not allowed: this server is stateless; send JSON-RPC with POST.'));
    });
  }

  // The "wrong URL" problem, reported clearly: the message says where the servers are.
  router.use('/mcp', (req, res) => {
    const urls = Object.values(MCP_SERVERS).map((s) => `${deps.publicUrl()}${s.path}`);
    const error = new RouteNotFoundError(`There is no tool server at ${req.originalUrl.split('?')[0]}. The tool servers are ${urls.join(' and ')}.`);
    res.status(HTTP_STATUS[error.code]).json(restErrorBody(error, req.requestId));
  });
  return router;
}
