import type { WebhookDelivery, WebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { noticeLine } from '../notice.js';
import { deliveryOutcome } from '../webhook-delivery-outcome.js';
import { enabledEventsText, webhookEventChoices, type WebhookEventChoice } from '../webhook-event-choices.js';
import { workspacePath } from '../workspace-url.js';
import { controlState } from '../form-refusal.js';
import { listPager } from '../list-pager.js';

/** The create form as typed, to fill it again after an error. */
export interface WebhookForm extends WebhookEventChoice {
  url: string;
  description: string;
}

export interface WebhooksView {
  session: ConsoleSession;
  endpoints: WebhookEndpoint[];
  /** Each endpoint's newest delivery, if it has had one. */
  lastDeliveries: Map<string, WebhookDelivery>;
  nextCursor: string | null;
  /** Past the first page of endpoints. */
  onLaterPage: boolean;
  notice?: string;
  error?: string;
  /** The field the error is about (url, description), marked on the form. */
  errorField?: string | undefined;
  form?: WebhookForm;
}

export const EMPTY_WEBHOOK_FORM: WebhookForm = { url: '', description: '', scope: 'all', types: [] };

function endpointRow(view: WebhooksView, endpoint: WebhookEndpoint): Html {
  const href = workspacePath(view.session, `/webhooks/${encodeURIComponent(endpoint.id)}`);
  return html`<tr>
    <td data-column="url"><a href="${href}">${endpoint.url}</a></td>
    <td data-column="description">${endpoint.description ?? html`<span class="muted">None</span>`}</td>
    <td data-column="events">${enabledEventsText(endpoint.enabled_events)}</td>
    <td data-column="status">${endpoint.status === 'enabled' ? 'Enabled' : html`<strong>Disabled</strong>`}</td>
    <td data-column="last-delivery">${deliveryOutcome(view.lastDeliveries.get(endpoint.id), view.session)}</td>
  </tr>`;
}

/** Back to the first page from a later one, and on to more endpoints (a later page had no way back but the section's link). */
function endpointsPager(view: WebhooksView, base: string): Html {
  return listPager({ base, nextCursor: view.nextCursor, onLaterPage: view.onLaterPage, next: 'More endpoints' });
}

/** The workspace's webhook endpoints, and a form to add one. */
export function webhooksPage(view: WebhooksView): Html {
  const form = view.form ?? EMPTY_WEBHOOK_FORM;
  const base = workspacePath(view.session, '/webhooks');
  const refused = { field: view.errorField, errorId: 'create-error' };
  return consoleLayout({
    session: view.session,
    section: 'webhooks',
    title: 'Webhooks',
    body: html`
      <p class="muted">Each endpoint receives the workspace's events as signed HTTPS POSTs (the Standard Webhooks format),
        retried for about a day when it fails.</p>
      ${noticeLine(view.notice)}
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        ${
          view.endpoints.length === 0
            ? html`<p>${view.onLaterPage ? 'No endpoints on this page.' : 'No endpoints yet.'}</p>`
            : html`<div class="table-scroll"><table class="webhook-endpoints" aria-labelledby="endpoints-heading">
                <thead><tr><th scope="col">URL</th><th scope="col">Description</th><th scope="col">Events</th>
                  <th scope="col">Status</th><th scope="col">Last delivery</th></tr></thead>
                <tbody>${view.endpoints.map((e) => endpointRow(view, e))}</tbody>
              </table></div>`
        }
        ${endpointsPager(view, base)}
      </section>

      <section aria-labelledby="create-heading">
        <h2 id="create-heading">Add an endpoint</h2>
        ${view.error ? html`<p class="error" role="alert" id="create-error">${view.error}</p>` : ''}
        <form method="post" action="${base}" ${view.error ? html`aria-describedby="create-error"` : ''}>
          <input type="hidden" name="csrf_token" value="${view.session.csrf}">
          <label for="webhook-url">URL</label>
          <input id="webhook-url" name="url" type="text" inputmode="url" autocomplete="off" maxlength="2048" required value="${form.url}" ${controlState(refused, 'url', 'webhook-url-help')}>
          <p id="webhook-url-help" class="muted">An https address on the public internet, e.g. https://example.com/crm-events.</p>
          <label for="webhook-description">Description (optional)</label>
          <input id="webhook-description" name="description" type="text" maxlength="500" value="${form.description}" ${controlState(refused, 'description')}>
          ${webhookEventChoices(form)}
          <div class="actions"><button class="primary" type="submit">Add endpoint</button></div>
        </form>
      </section>`,
  });
}
