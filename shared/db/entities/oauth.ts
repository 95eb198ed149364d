import { defineEntity, p } from '@mikro-orm/core';
import type { Scope } from '../../auth/scopes.js';
import { User } from './user.js';
import { Workspace } from './workspace.js';

/**
 * The authorization server's tables (migration 0003). They are read and written through
 * typed SQL (see ../sql.ts); these definitions give those queries their types.
 */
export type McpServerKey = 'crm' | 'studio';

export const OAuthClientSchema = defineEntity({
  name: 'OAuthClient',
  tableName: 'oauth_clients',
  properties: {
    id: p.string().primary(),
    clientName: p.string().nullable(),
    redirectUris: p.array(),
    /** The registered metadata, as the SDK's registration handler produced it (never a secret: clients are public). */
    metadata: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
  },
});
export class OAuthClient extends OAuthClientSchema.class {}
OAuthClientSchema.setClass(OAuthClient);

export const UserSessionSchema = defineEntity({
  name: 'UserSession',
  tableName: 'user_sessions',
  properties: {
    id: p.string().primary(),
    /** HMAC of the cookie value; the cookie itself is never stored. */
    tokenHash: p.string(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id'),
    createdAt: p.datetime(3),
    lastSeenAt: p.datetime(3),
    expiresAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
  },
});
export class UserSession extends UserSessionSchema.class {}
UserSessionSchema.setClass(UserSession);

export const OAuthAuthorizationRequestSchema = defineEntity({
  name: 'OAuthAuthorizationRequest',
  tableName: 'oauth_authorization_requests',
  properties: {
    id: p.string().primary(),
    clientId: () => p.manyToOne(OAuthClient).mapToPk().fieldName('client_id'),
    redirectUri: p.string(),
    codeChallenge: p.string(),
    state: p.string().nullable(),
    requestedScopes: p.array(),
    server: p.string().$type<McpServerKey>(),
    resource: p.string(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    completedAt: p.datetime(3).nullable(),
  },
});
export class OAuthAuthorizationRequest extends OAuthAuthorizationRequestSchema.class {}
OAuthAuthorizationRequestSchema.setClass(OAuthAuthorizationRequest);

export const OAuthGrantSchema = defineEntity({
  name: 'OAuthGrant',
  tableName: 'oauth_grants',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id'),
    clientId: () => p.manyToOne(OAuthClient).mapToPk().fieldName('client_id'),
    server: p.string().$type<McpServerKey>(),
    scopes: p.array<Scope>(),
    allowsChanges: p.boolean(),
    createdAt: p.datetime(3),
    lastUsedAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
    revokedReason: p.string().nullable(),
  },
});
export class OAuthGrant extends OAuthGrantSchema.class {}
OAuthGrantSchema.setClass(OAuthGrant);

export const OAuthCodeSchema = defineEntity({
  name: 'OAuthCode',
  tableName: 'oauth_codes',
  properties: {
    codeHash: p.string().primary(),
    grantId: () => p.manyToOne(OAuthGrant).mapToPk().fieldName('grant_id'),
    clientId: p.string(),
    redirectUri: p.string(),
    codeChallenge: p.string(),
    resource: p.string(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
  },
});
export class OAuthCode extends OAuthCodeSchema.class {}
OAuthCodeSchema.setClass(OAuthCode);

export const OAuthRefreshTokenSchema = defineEntity({
  name: 'OAuthRefreshToken',
  tableName: 'oauth_refresh_tokens',
  properties: {
    tokenHash: p.string().primary(),
    grantId: () => p.manyToOne(OAuthGrant).mapToPk().fieldName('grant_id'),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    rotatedAt: p.datetime(3).nullable(),
  },
});
export class OAuthRefreshToken extends OAuthRefreshTokenSchema.class {}
OAuthRefreshTokenSchema.setClass(OAuthRefreshToken);

export const OAuthSigningKeySchema = defineEntity({
  name: 'OAuthSigningKey',
  tableName: 'oauth_signing_keys',
  properties: {
    kid: p.string().primary(),
    algorithm: p.string(),
    publicJwk: p.json<Record<string, unknown>>(),
    /** AES-256-GCM under a key derived from CRM_SECRET. */
    privateKeyEncrypted: p.string(),
    createdAt: p.datetime(3),
    retiredAt: p.datetime(3).nullable(),
  },
});
export class OAuthSigningKey extends OAuthSigningKeySchema.class {}
OAuthSigningKeySchema.setClass(OAuthSigningKey);

export const SignInAttemptSchema = defineEntity({
  name: 'SignInAttempt',
  tableName: 'sign_in_attempts',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    email: p.string(),
    ip: p.string(),
    succeeded: p.boolean(),
    createdAt: p.datetime(3),
  },
});
export class SignInAttempt extends SignInAttemptSchema.class {}
SignInAttemptSchema.setClass(SignInAttempt);
