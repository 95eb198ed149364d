import { defineEntity, p } from '@mikro-orm/core';
import type { McpServerKey } from '../../contracts/oauth.js';
import { OAuthClient } from './oauth-client.js';

/** An authorization request waiting for the user's consent (migration 0003). */
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
