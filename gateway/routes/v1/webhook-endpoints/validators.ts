import { z } from 'zod';
import { Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { CreateWebhookEndpointInput, UpdateWebhookEndpointInput, WebhookDeliveryStatus } from '../../../../shared/contracts/webhooks.js';
import { pathId } from '../../../api/path-id.js';

export const WebhookEndpointIdParams = z.strictObject({ id: pathId('we_') });

export const WebhookDeliveryParams = z.strictObject({
  id: pathId('we_'),
  delivery_id: pathId('msg_'),
});

export const ListWebhookEndpointsQuery = z.strictObject({ limit: PageLimitQuery, cursor: Cursor.optional().describe('Taken from links.next') });

export const ListWebhookDeliveriesQuery = ListWebhookEndpointsQuery.extend({
  status: WebhookDeliveryStatus.optional().describe('Only deliveries in this state, e.g. failed: those to retry'),
});

export const CreateWebhookEndpointBody = CreateWebhookEndpointInput;

export const UpdateWebhookEndpointBody = UpdateWebhookEndpointInput;
