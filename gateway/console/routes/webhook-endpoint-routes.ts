import { Router, type Request, type Response } from 'express';
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookDeliveries,
  MAX_PREVIOUS_SECRET_SECONDS,
  retryWebhookDelivery,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from '../../../shared/contracts/webhooks.js';
import { callWorker } from '../../call-worker.js';
import type { GatewayDeps } from '../../deps.js';
import { HTTP_STATUS } from '../../errors/http-status.js';
import { crmErrorIn } from '../../pages/form-error.js';
import { html } from '../../pages/html.js';
import { sendPage } from '../../pages/session-routes.js';
import { parseWith } from '../../validation.js';
import { sessionOf } from '../console-session.js';
import { pathParam, textField } from '../form-fields.js';
import { noticeFrom } from '../notice.js';
import { confirmPage } from '../pages/confirm-page.js';
import { webhookEndpointPage } from '../pages/webhook-endpoint-page.js';
import { webhookSecretPage } from '../pages/webhook-secret-page.js';
import { requireConfiguration } from '../require-configuration.js';
import { workspacePath } from '../workspace-url.js';

/** How long a rotated secret may keep signing, as the console offers it (the first: not at all). */
const KEEP_PREVIOUS: readonly [number, string][] = [
  [0, 'No time: it stops now'],
  [3600, '1 hour'],
  [86_400, '24 hours'],
  [MAX_PREVIOUS_SECRET_SECONDS, '7 days'],
];

const NOTICES: Record<string, string> = {
  test_sent: 'A test event was sent. Its delivery is listed below (reload to see its attempt).',
  disabled: 'The endpoint is disabled: it receives nothing until it is enabled again.',
  enabled: 'The endpoint is enabled again. It receives events from now on.',
  retried: 'The delivery is being sent again. Reload to see the new attempt.',
};

const DELIVERIES_PER_PAGE = 20;

/** One webhook endpoint (administrators only): its page, its deliveries, and what can be done with it. */
export function webhookEndpointRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.use(requireConfiguration);

  const endpointPath = (req: Request, id: string) => workspacePath(sessionOf(req), `/webhooks/${encodeURIComponent(id)}`);

  const showEndpoint = async (req: Request, res: Response, extra: { error?: string; status?: number } = {}) => {
    const id = pathParam(req, 'id');
    const cursor = typeof req.query.cursor === 'string' && req.method === 'GET' ? req.query.cursor : undefined;
    const [endpoint, deliveries] = await Promise.all([
      callWorker(deps.bus, req, getWebhookEndpoint, { id }),
      callWorker(deps.bus, req, listWebhookDeliveries, { endpoint_id: id, limit: DELIVERIES_PER_PAGE, ...(cursor ? { cursor } : {}) }),
    ]);
    const page = webhookEndpointPage({
      session: sessionOf(req),
      endpoint: endpoint.result,
      deliveries: deliveries.result.data,
      nextCursor: deliveries.result.next_cursor,
      onLaterPage: cursor !== undefined,
      notice: noticeFrom(req, NOTICES),
      ...extra,
    });
    sendPage(res, page, extra.status ?? 200);
  };

  /** An action that goes back to the endpoint's page with a notice, or shows why it was refused there. */
  const action = (path: string, run: (req: Request, id: string) => Promise<string>) => {
    router.post(path, async (req, res) => {
      const id = pathParam(req, 'id');
      try {
        const notice = await run(req, id);
        res.redirect(303, `${endpointPath(req, id)}?notice=${notice}`);
      } catch (error) {
        // E.g. a test event or a retry for a disabled endpoint.
        if (crmErrorIn(error, ['conflict', 'validation_failed'])) return showEndpoint(req, res, { error: error.message, status: HTTP_STATUS[error.code] });
        throw error;
      }
    });
  };

  router.get('/:id', (req, res) => showEndpoint(req, res));

  action('/:id/test', async (req, id) => {
    await callWorker(deps.bus, req, sendTestWebhook, { id });
    return 'test_sent';
  });

  action('/:id/status', async (req, id) => {
    const { status } = parseWith(updateWebhookEndpoint.input, { id, status: textField(req, 'status', 20) });
    await callWorker(deps.bus, req, updateWebhookEndpoint, { id, status });
    return status === 'disabled' ? 'disabled' : 'enabled';
  });

  action('/:id/deliveries/:deliveryId/retry', async (req, id) => {
    await callWorker(deps.bus, req, retryWebhookDelivery, { endpoint_id: id, id: pathParam(req, 'deliveryId') });
    return 'retried';
  });

  router.get('/:id/rotate-secret', async (req, res) => {
    const session = sessionOf(req);
    const endpoint = (await callWorker(deps.bus, req, getWebhookEndpoint, { id: pathParam(req, 'id') })).result;
    const here = endpointPath(req, endpoint.id);
    const page = confirmPage({
      session,
      section: 'webhooks',
      title: `Rotate the signing secret of ${endpoint.url}?`,
      details: html`<p>A new secret signs every delivery from now on; the receiver must be given it (shown on the next page only).
        If the current secret may have leaked, let it stop at once. Otherwise keep it signing beside the new one while the receiver switches:
        each delivery then carries both signatures, and either secret verifies it.</p>`,
      fields: html`<div class="field"><label for="expire_previous_in">The current secret keeps signing for</label>
        <select id="expire_previous_in" name="expire_previous_in">
          ${KEEP_PREVIOUS.map(([seconds, label]) => html`<option value="${String(seconds)}">${label}</option>`)}
        </select></div>`,
      action: `${here}/rotate-secret`,
      button: 'Rotate secret',
      cancel: here,
    });
    sendPage(res, page);
  });

  router.post('/:id/rotate-secret', async (req, res) => {
    const keep = KEEP_PREVIOUS.find(([seconds]) => String(seconds) === textField(req, 'expire_previous_in'))?.[0] ?? 0;
    const { result } = await callWorker(deps.bus, req, rotateWebhookSecret, { id: pathParam(req, 'id'), expire_previous_in: keep });
    const { secret, ...endpoint } = result;
    sendPage(res, webhookSecretPage({ session: sessionOf(req), endpoint, secret, rotated: true }));
  });

  router.get('/:id/delete', async (req, res) => {
    const session = sessionOf(req);
    const endpoint = (await callWorker(deps.bus, req, getWebhookEndpoint, { id: pathParam(req, 'id') })).result;
    const page = confirmPage({
      session,
      section: 'webhooks',
      title: `Delete the endpoint ${endpoint.url}?`,
      details: html`<p>It receives no more events, and its deliveries and their attempts are deleted with it. This cannot be undone.</p>
        <p class="muted">To stop deliveries for a while instead, disable it.</p>`,
      action: `${endpointPath(req, endpoint.id)}/delete`,
      button: 'Delete endpoint',
      cancel: endpointPath(req, endpoint.id),
    });
    sendPage(res, page);
  });

  router.post('/:id/delete', async (req, res) => {
    await callWorker(deps.bus, req, deleteWebhookEndpoint, { id: pathParam(req, 'id') });
    res.redirect(303, `${workspacePath(sessionOf(req), '/webhooks')}?notice=deleted`);
  });

  return router;
}
