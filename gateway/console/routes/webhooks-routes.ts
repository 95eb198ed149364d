import { Router, type Request, type Response } from 'express';
import { createWebhookEndpoint, listWebhookDeliveries, listWebhookEndpoints, type WebhookDelivery } from '../../../shared/contracts/webhooks.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { listField, textField } from '../form-fields.js';
import { noticeFrom } from '../notice.js';
import { webhookSecretPage } from '../pages/webhook-secret-page.js';
import { webhooksPage, type WebhookForm } from '../pages/webhooks-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { refusalMessage, refusedField } from '../form-refusal.js';
import { ADMIN_LIST_PAGE_SIZE } from '../list-pager.js';

const NOTICES: Record<string, string> = {
  deleted: 'The endpoint was deleted, with its deliveries. It receives nothing more.',
};

/** The create form's fields as the page labels them, for its refusals. */
const LABELS = { url: 'URL', description: 'Description', enabled_events: 'Events to send' };

/** The create form as posted: "all" unless the member chose to pick types. */
function webhookForm(req: Request): WebhookForm {
  return {
    url: textField(req, 'url', 2048),
    description: textField(req, 'description', 500),
    scope: textField(req, 'events_scope', 10) === 'chosen' ? 'chosen' : 'all',
    types: listField(req, 'events'),
  };
}

/** The workspace's webhook endpoints (administrators only): the list and adding one. */
export function webhooksRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const showList = async (req: Request, res: Response, extra: { error?: string; errorField?: string | undefined; form?: WebhookForm; status?: number } = {}) => {
    const cursor = typeof req.query.cursor === 'string' && extra.form === undefined ? req.query.cursor : undefined;
    const endpoints = (await callWorker(deps.bus, req, listWebhookEndpoints, { limit: ADMIN_LIST_PAGE_SIZE, ...(cursor ? { cursor } : {}) })).result;
    // The newest delivery of each, for the "last delivery" column: one small read per endpoint.
    const newest = await Promise.all(
      endpoints.data.map(async (e) => (await callWorker(deps.bus, req, listWebhookDeliveries, { endpoint_id: e.id, limit: 1 })).result.data[0]),
    );
    const lastDeliveries = new Map<string, WebhookDelivery>(newest.filter((d): d is WebhookDelivery => d !== undefined).map((d) => [d.endpoint_id, d]));
    const page = webhooksPage({
      session: sessionOf(req),
      endpoints: endpoints.data,
      lastDeliveries,
      nextCursor: endpoints.next_cursor,
      onLaterPage: cursor !== undefined,
      notice: noticeFrom(req, NOTICES),
      ...extra,
    });
    sendPage(res, page, extra.status ?? 200);
  };

  router.get('/', (req, res) => showList(req, res));

  router.post('/', async (req, res) => {
    const form = webhookForm(req);
    try {
      const input = parseWith(createWebhookEndpoint.input, {
        url: form.url,
        description: form.description.trim() === '' ? null : form.description,
        enabled_events: form.scope === 'all' ? ['*'] : form.types,
      });
      const { result } = await callWorker(deps.bus, req, createWebhookEndpoint, input);
      const { secret, ...endpoint } = result;
      sendPage(res, webhookSecretPage({ session: sessionOf(req), endpoint, secret, rotated: false }));
    } catch (error) {
      if (crmErrorIn(error, ['validation_failed', 'conflict', 'missing_scope', 'forbidden'])) {
        return showList(req, res, { error: refusalMessage(error, LABELS), errorField: refusedField(error, LABELS), form, status: HTTP_STATUS[error.code] });
      }
      throw error;
    }
  });

  return router;
}
