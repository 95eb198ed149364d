import { defineEntity, p } from '@mikro-orm/core';
import { Workspace } from './workspace.js';

/** One HTTP attempt of a delivery, kept for the endpoint's delivery log. */
export const WebhookDeliveryAttemptSchema = defineEntity({
  name: 'WebhookDeliveryAttempt',
  tableName: 'webhook_delivery_attempts',
  properties: {
    id: p.bigint('number').primary().autoincrement(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    deliveryId: p.string(),
    attemptedAt: p.datetime(3),
    /** The response's status; null when none came (refused address, timeout, connection error). */
    statusCode: p.integer().nullable(),
    latencyMs: p.integer(),
    succeeded: p.boolean(),
    error: p.text().nullable(),
  },
});

export class WebhookDeliveryAttempt extends WebhookDeliveryAttemptSchema.class {}
WebhookDeliveryAttemptSchema.setClass(WebhookDeliveryAttempt);
