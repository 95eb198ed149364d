import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { serverScopesFor } from '../../../shared/auth/mcp-servers.js';
import type { Permission } from '../../../shared/auth/permissions.js';
import type { Scope } from '../../../shared/auth/scopes.js';
import type { McpServerKey } from '../../../shared/contracts/oauth.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { pgTimestamp, sqlOf } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { InvalidGrantError, InvalidScopeError } from '../../../shared/errors.js';
import type { Secrets } from '../../../shared/secrets.js';
import { hashOpaqueSecret, newOpaqueSecret } from '../credentials/opaque-secret.js';
import { activeSigningKey, SIGNING_ALGORITHM } from './signing-keys.js';

/** Access tokens are short-lived: revocation is also checked, but expiry bounds any cache. */
export const ACCESS_TOKEN_TTL_SECONDS = 600;
const REFRESH_TOKEN_TTL_DAYS = 30;
/**
 * However often its refresh tokens rotate, a grant issues none past this many days after the
 * user approved it: a stolen refresh token that keeps rotating does not live forever, and
 * the user confirms the connection again.
 */
export const GRANT_MAX_LIFETIME_DAYS = 90;
const DAY_MS = 86_400_000;

/** When the grant's last refresh token must expire, whatever rotation happened. */
function grantEnd(grantCreatedAt: string): Date {
  return new Date(pgTimestamp(grantCreatedAt).getTime() + GRANT_MAX_LIFETIME_DAYS * DAY_MS);
}

export function grantLifetimeEnded(grantCreatedAt: string, now = new Date()): boolean {
  return grantEnd(grantCreatedAt) <= now;
}

export interface GrantToIssue {
  id: string;
  user_id: string;
  workspace_id: string;
  client_id: string;
  server: McpServerKey;
  scopes: Scope[];
  /** When the user approved it: the absolute lifetime counts from here. */
  created_at: string;
}

/** The audience of a server's access tokens: its URL on the issuer. */
export function resourceUrl(issuer: string, server: McpServerKey): string {
  return `${issuer.replace(/\/+$/, '')}/mcp/${server}`;
}

/**
 * A signed access token (JWT, ES256) bound to one server, and a new refresh token unless the
 * client registered without that grant type. The scopes are those of the grant that the
 * member's permissions still allow, so a member whose permissions shrank gets less at the
 * next refresh.
 */
export async function issueTokens<Refresh extends boolean = true>(
  tx: EntityManager,
  secrets: Secrets,
  grant: GrantToIssue,
  issuer: string,
  requested?: Scope[],
  withRefreshToken: Refresh = true as Refresh,
) {
  const member = await workspaceSql(tx, grant.workspace_id)
    .selectFrom('memberships')
    .select(['permissions', 'visibility'])
    .where('user_id', '=', grant.user_id)
    .executeTakeFirst();
  if (!member) throw new InvalidGrantError('The user is no longer a member of the workspace.');
  const allowed = serverScopesFor(grant.server, member.permissions as Permission[]);
  const stillAllowed = grant.scopes.filter((s) => [...allowed.read, ...allowed.write].includes(s));
  const scopes = stillAllowed.filter((s) => (requested ?? grant.scopes).includes(s));
  if (scopes.length === 0) {
    // A refresh asking only for scopes the member lost: its scope request fails (RFC 6749 §5.2), not the grant, which still allows others.
    if (stillAllowed.length > 0) throw new InvalidScopeError(`None of the scopes asked for is allowed any more; this grant still allows ${stillAllowed.join(' ')}.`);
    throw new InvalidGrantError('The grant no longer allows anything.');
  }

  const now = new Date();
  if (grantLifetimeEnded(grant.created_at, now)) throw new InvalidGrantError('The grant has reached its maximum lifetime; authorize again.');
  const refreshToken = withRefreshToken ? newOpaqueSecret('rt') : undefined;
  if (refreshToken !== undefined) {
    await sqlOf(tx)
      .insertInto('oauth_refresh_tokens')
      .values({
        token_hash: hashOpaqueSecret(secrets.opaqueHashKey, refreshToken),
        grant_id: grant.id,
        created_at: now,
        expires_at: new Date(Math.min(now.getTime() + REFRESH_TOKEN_TTL_DAYS * DAY_MS, grantEnd(grant.created_at).getTime())),
        rotated_at: null,
      })
      .execute();
  }

  const key = await activeSigningKey(tx, secrets.keyEncryptionKey);
  const accessToken = await new SignJWT({
    scope: scopes.join(' '),
    client_id: grant.client_id,
    ws: grant.workspace_id,
    gnt: grant.id,
    vis: member.visibility,
  })
    .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.kid, typ: 'at+jwt' })
    .setIssuer(issuer)
    .setSubject(grant.user_id)
    .setAudience(resourceUrl(issuer, grant.server))
    .setIssuedAt()
    .setExpirationTime(Math.floor(now.getTime() / 1000) + ACCESS_TOKEN_TTL_SECONDS)
    .setJti(randomBytes(16).toString('base64url'))
    .sign(key.privateKey);

  const tokens = { access_token: accessToken, token_type: 'Bearer' as const, expires_in: ACCESS_TOKEN_TTL_SECONDS, scope: scopes.join(' ') };
  return (refreshToken === undefined ? tokens : { ...tokens, refresh_token: refreshToken }) as typeof tokens & (Refresh extends true ? { refresh_token: string } : { refresh_token?: string });
}
