import type { WebhookDelivery, WebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { when, type ShownIn } from '../format.js';
import { historyPager } from '../history-pager.js';
import { noticeLine } from '../notice.js';
import { deliveryOutcome } from '../webhook-delivery-outcome.js';
import { enabledEventsText } from '../webhook-event-choices.js';
import { workspacePath } from '../workspace-url.js';

export interface WebhookEndpointView {
  session: ConsoleSession;
  endpoint: WebhookEndpoint;
  /** A page of its deliveries, newest first. */
  deliveries: WebhookDelivery[];
  nextCursor: string | null;
  onLaterPage: boolean;
  notice?: string;
  error?: string;
}

/** A POST button in a form of its own, with the CSRF token. */
function actionButton(session: ConsoleSession, action: string, label: string, options: { className?: string; name?: string; fields?: Html } = {}): Html {
  return html`<form method="post" action="${action}" class="inline-form">
    <input type="hidden" name="csrf_token" value="${session.csrf}">
    ${options.fields ?? ''}
    <button class="${options.className ?? 'secondary'}" type="submit" ${options.name ? html`aria-label="${options.name}"` : ''}>${label}</button>
  </form>`;
}

function statusText(endpoint: WebhookEndpoint, shownIn: ShownIn): Html {
  if (endpoint.status === 'disabled') return html`<strong>Disabled</strong>: it receives nothing until it is enabled again.`;
  if (endpoint.failing_since) return html`Enabled, but every attempt has failed since ${when(endpoint.failing_since, shownIn)}`;
  return html`Enabled`;
}

/** Every attempt of a delivery, oldest first: when, the HTTP status, how long, and why it failed. */
function attemptList(delivery: WebhookDelivery, shownIn: ShownIn): Html {
  if (delivery.attempts.length === 0) return html`<span class="muted">Not sent yet</span>`;
  return html`<ol class="attempts">
    ${delivery.attempts.map(
      (a) => html`<li>${when(a.attempted_at, shownIn)}: ${a.status_code === null ? 'no response' : `HTTP ${a.status_code}`}, ${a.latency_ms} ms${a.error ? html` <span class="attempt-error">(${a.error})</span>` : ''}</li>`,
    )}
  </ol>`;
}

function deliveryRow(view: WebhookEndpointView, base: string, delivery: WebhookDelivery): Html {
  const action = `${base}/deliveries/${encodeURIComponent(delivery.id)}/retry`;
  // A failed one is sent once more; one waiting for its next scheduled attempt (its receiver
  // fixed, say) is sent now. One not attempted yet is about to be sent anyway.
  const retry =
    delivery.status === 'failed'
      ? actionButton(view.session, action, 'Retry', { name: `Retry delivery ${delivery.id}` })
      : delivery.status === 'pending' && delivery.attempts.length > 0
        ? actionButton(view.session, action, 'Send now', { name: `Send delivery ${delivery.id} now` })
        : '';
  return html`<tr data-delivery="${delivery.id}">
    <td data-column="event"><code>${delivery.event_type}</code><br><span class="muted">${delivery.event_id}</span></td>
    <td data-column="created">${when(delivery.created_at, view.session)}</td>
    <td data-column="status">${deliveryOutcome(delivery, view.session)}</td>
    <td data-column="attempts">${attemptList(delivery, view.session)}</td>
    <td>${retry}</td>
  </tr>`;
}

/** One webhook endpoint: what it receives, what can be done with it, and its deliveries with their attempts. */
export function webhookEndpointPage(view: WebhookEndpointView): Html {
  const e = view.endpoint;
  const list = workspacePath(view.session, '/webhooks');
  const base = `${list}/${encodeURIComponent(e.id)}`;
  const enabled = e.status === 'enabled';
  return consoleLayout({
    session: view.session,
    section: 'webhooks',
    title: `Webhook endpoint ${e.url}`,
    body: html`
      <p><a href="${list}">All webhook endpoints</a></p>
      ${noticeLine(view.notice)}
      ${view.error ? html`<p class="error" role="alert">${view.error}</p>` : ''}
      <dl class="facts">
        <dt>Id</dt><dd><code>${e.id}</code></dd>
        <dt>URL</dt><dd>${e.url}</dd>
        <dt>Description</dt><dd>${e.description ?? html`<span class="muted">None</span>`}</dd>
        <dt>Events</dt><dd>${enabledEventsText(e.enabled_events)}</dd>
        <dt>Status</dt><dd data-fact="status">${statusText(e, view.session)}</dd>
        <dt>Signing secret</dt><dd>${e.secret_rotated_at ? html`Rotated ${when(e.secret_rotated_at, view.session)}` : 'Set when the endpoint was added'}${
          e.previous_secret_expires_at ? html`; the previous secret also signs until ${when(e.previous_secret_expires_at, view.session)}` : ''
        }</dd>
        <dt>Added</dt><dd>${when(e.created_at, view.session)}</dd>
      </dl>
      <div class="actions">
        ${enabled ? actionButton(view.session, `${base}/test`, 'Send test event') : ''}
        ${actionButton(view.session, `${base}/status`, enabled ? 'Disable' : 'Enable', {
          fields: html`<input type="hidden" name="status" value="${enabled ? 'disabled' : 'enabled'}">`,
        })}
        <a class="button-link" href="${base}/rotate-secret">Rotate secret</a>
        <a class="button-link" href="${base}/delete">Delete</a>
      </div>

      <section aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        ${
          view.deliveries.length === 0
            ? html`<p role="status">No deliveries${view.onLaterPage ? ' further back' : ' yet'}.</p>`
            : html`<div class="table-scroll"><table class="deliveries">
                <caption class="sr-only">Deliveries, newest first</caption>
                <thead><tr><th scope="col">Event</th><th scope="col">Created</th><th scope="col">Outcome</th>
                  <th scope="col">Attempts</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                <tbody>${view.deliveries.map((d) => deliveryRow(view, base, d))}</tbody>
              </table></div>`
        }
        ${historyPager(base, {}, view.nextCursor, view.onLaterPage, 'Older and newer deliveries')}
      </section>`,
  });
}
