import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from './workspace.js';

/** Where a workspace wants its events delivered, signed with the endpoint's own secret. */
export const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  tableName: 'webhook_endpoints',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    url: p.string(),
    description: p.string().nullable(),
    /** Event types, or `*` for every one. */
    enabledEvents: p.array<string>(),
    status: p.string(),
    /** The `whsec_…` signing secret, AES-256-GCM under a key derived from CRM_SECRET. */
    secretEncrypted: p.string(),
    secretRotatedAt: p.datetime(3).nullable(),
    /** After a rotation: the secret it replaced, still signing beside the new one until previousSecretExpiresAt. */
    previousSecretEncrypted: p.string().nullable(),
    previousSecretExpiresAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
    /** Since when every attempt has failed; null after a success. */
    failingSince: p.datetime(3).nullable(),
  },
});

export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);
