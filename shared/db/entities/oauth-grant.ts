import { defineEntity, p } from '@mikro-orm/core';
import type { Scope } from '../../auth/scopes.js';
import type { McpServerKey } from '../../contracts/oauth.js';
import { OAuthClient } from './oauth-client.js';
import { User } from './user.js';
import { Workspace } from './workspace.js';

/** What a user allowed a client in one workspace; codes and refresh tokens hang off it (migration 0003). */
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
