import type { Response } from 'express';
import type { McpServerDefinition } from '../../shared/auth/mcp-servers.js';
import type { CrmError } from '../../shared/errors.js';
import { HTTP_STATUS } from '../errors/http-status.js';
import { BEARER_ERROR, bearerErrorBody } from '../oauth/oauth-errors.js';

/** Where a tool server's protected resource metadata is served (RFC 9728: the well-known prefix before the path). */
export function resourceMetadataUrl(publicUrl: string, server: Pick<McpServerDefinition, 'path'>): string {
  return `${publicUrl}/.well-known/oauth-protected-resource${server.path}`;
}

/**
 * The 401 for a request that sent no credential: a challenge without an error code (RFC 6750
 * §3.1), naming the scopes to ask for (MCP 2025-11-25) and the protected resource metadata.
 * Its body has no `error` either, so it cannot be read as "your token is bad".
 */
export function sendCredentialNeeded(res: Response, resourceMetadata: string, scope: string): void {
  res
    .status(401)
    .set('WWW-Authenticate', `Bearer resource_metadata="${resourceMetadata}", scope="${scope}"`)
    .json({ error_description: 'Authorization needed: send an access token (Authorization: Bearer …).' });
}

/** An RFC 6750 challenge (401 invalid_token, 403 insufficient_scope) pointing at the protected resource metadata. */
export function sendBearerChallenge(res: Response, error: CrmError, resourceMetadata: string, scope?: string): void {
  // Quotes inside a quoted-string would end it early.
  const quoted = (text: string) => text.replace(/["\\]/g, "'");
  const parts = [`Bearer error="${BEARER_ERROR[error.code]}"`, `error_description="${quoted(error.message)}"`];
  if (scope) parts.push(`scope="${scope}"`);
  parts.push(`resource_metadata="${resourceMetadata}"`);
  res.status(HTTP_STATUS[error.code]).set('WWW-Authenticate', parts.join(', ')).json(bearerErrorBody(error));
}
