import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from './workspace.js';

/**
 * One event for one endpoint: a Standard Webhooks message, its id (`msg_…`) the
 * `webhook-id` header, so a receiver can drop a delivery it has already seen.
 */
export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  tableName: 'webhook_deliveries',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    endpointId: p.string(),
    eventId: p.string(),
    eventType: p.string(),
    /** The JSON body as signed and sent. */
    payload: p.text(),
    status: p.string(),
    attemptCount: p.integer(),
    /** When the delivery loop sends it next (while pending); also the lease of the copy sending it. */
    nextAttemptAt: p.datetime(3).nullable(),
    /** While a copy has it (claimed, or queued by it to send at once) and has not stored its attempt: a retry by hand waits. */
    leasedUntil: p.datetime(3).nullable(),
    lastAttemptAt: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
    updatedAt: p.datetime(3),
  },
});

export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);
