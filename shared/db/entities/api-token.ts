import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from './workspace.js';
import type { Scope } from '../../auth/scopes.js';

export const ApiTokenSchema = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    name: p.string(),
    /** HMAC-SHA-256 of the token under a key derived from CRM_SECRET; the plaintext is never stored. */
    tokenHash: p.string(),
    displayHint: p.string(),
    scopes: p.array<Scope>(),
    createdBy: p.string().nullable(),
    /** The token that created this one (migration 0005); it expires no later than its parent. */
    parentId: p.string().nullable(),
    createdAt: p.datetime(3),
    lastUsedAt: p.datetime(3).nullable(),
    expiresAt: p.datetime(3).nullable(),
    revokedAt: p.datetime(3).nullable(),
  },
});

export class ApiToken extends ApiTokenSchema.class {}
ApiTokenSchema.setClass(ApiToken);
