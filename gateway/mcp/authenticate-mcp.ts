import type { RequestHandler } from 'express';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { canUseServer, MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import type { McpServerKey } from '../../shared/contracts/oauth.js';
import type { Scope } from '../../shared/auth/scopes.js';
import { CrmError, MissingScopeError } from '../../shared/errors.js';
import type { ApiTokenAuthenticator } from '../auth/authenticate-api-token.js';
import { bearerCredential } from '../auth/bearer.js';
import type { AccessTokenVerifier } from '../oauth/access-token-verifier.js';
import { BEARER_ERROR } from '../oauth/oauth-errors.js';
import { resourceMetadataUrl, sendBearerChallenge, sendCredentialNeeded } from './bearer-challenge.js';
import type { ResolvedCredential } from '../request-state.js';
import { serverScopes } from './tool.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** What the MCP SDK's transport passes on to tool handlers. */
    auth?: AuthInfo;
  }
}

/** API tokens never expire unless they say so; the SDK wants a time anyway. */
const FAR_FUTURE = Math.floor(new Date('2100-01-01').getTime() / 1000);

/**
 * Who may talk to a tool server: an OAuth access token issued for this server (its
 * audience), or an API token. No credential or a bad one: 401 with the protected
 * resource metadata. A credential that cannot use this server at all: 403
 * insufficient_scope naming the scopes it would need.
 */
export function authenticateMcp(
  server: McpServerKey,
  publicUrl: () => string,
  tokens: ApiTokenAuthenticator,
  verifier: AccessTokenVerifier,
): RequestHandler {
  const def = MCP_SERVERS[server];
  return async (req, res, next) => {
    const resource = `${publicUrl()}${def.path}`;
    const metadata = resourceMetadataUrl(publicUrl(), def);
    const refuse = (error: CrmError, scope?: string) => sendBearerChallenge(res, error, metadata, scope);

    // What a client is told to ask for: every scope of the server. The authorization request's
    // scope narrows the grant, and consent itself keeps a first connection read-only, so naming
    // only the reads here would take "Allow changes" from a client that re-authorizes.
    const scopesToAsk = [...def.readScopes, ...def.writeScopes].join(' ');
    const credentialText = bearerCredential(req);
    if (!credentialText) return sendCredentialNeeded(res, metadata, scopesToAsk);
    let credential: ResolvedCredential;
    let expiresAt = FAR_FUTURE;
    let clientId = 'api-token';
    try {
      if (credentialText.startsWith('sk_')) {
        credential = await tokens.resolve(credentialText, req);
      } else {
        const claims = await verifier.verify(credentialText, resource);
        expiresAt = claims.expiresAt;
        clientId = claims.clientId;
        credential = {
          kind: 'oauth',
          workspaceId: claims.workspaceId,
          scopes: claims.scopes,
          grantId: claims.grantId,
          context: {
            workspace_id: claims.workspaceId,
            principal: { type: 'user', id: claims.userId, scopes: claims.scopes, grant_id: claims.grantId },
            visibility: claims.visibility,
          },
        };
      }
    } catch (error) {
      // The scopes to ask for again, as on the first 401 (MCP 2025-11-25): without them a client re-authorizing falls back to every scope the server supports.
      if (error instanceof CrmError && BEARER_ERROR[error.code]) return refuse(error, scopesToAsk);
      throw error;
    }
    if (!canUseServer(server, credential.scopes)) {
      // The scopes it takes and those held, in words: a REST token (schema:write) sent to Studio was told only "cannot use".
      const held = credential.scopes.length > 0 ? `holds only ${credential.scopes.join(', ')}` : 'holds no scope';
      const message = `This credential cannot use the ${def.title} server: it needs one of the scopes ${serverScopes(def).join(', ')} and ${held}`;
      return refuse(new MissingScopeError(def.readScopes[0] as Scope, message), def.readScopes.join(' '));
    }
    req.credential = credential;
    req.auth = { token: credentialText, clientId, scopes: credential.scopes, expiresAt, resource: new URL(resource) };
    next();
  };
}
