import type { WebhookEndpoint } from '../../../shared/contracts/webhooks.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { copyBlock } from '../copy-block.js';
import { when, type ShownIn } from '../format.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';

/** What the previous secret still does: a rotation may keep it signing for a while (previous_secret_expires_at). */
function rotationLine(endpoint: WebhookEndpoint, shownIn: ShownIn): Html {
  return endpoint.previous_secret_expires_at
    ? html`<p>Deliveries are signed with this secret from now on, and with the previous secret too until ${when(endpoint.previous_secret_expires_at, shownIn)}; either verifies them until then.</p>`
    : html`<p>Deliveries are signed with this secret from now on; the previous secret no longer verifies them.</p>`;
}

/**
 * The one time an endpoint's signing secret is shown: after creating the endpoint or
 * rotating its secret. The answer to a POST; the URL becomes the endpoint's page, so a
 * reload shows that page, without the secret.
 */
export function webhookSecretPage(options: { session: ConsoleSession; endpoint: WebhookEndpoint; secret: string; rotated: boolean }): Html {
  const { session, endpoint } = options;
  const endpointPage = workspacePath(session, `/webhooks/${encodeURIComponent(endpoint.id)}`);
  return consoleLayout({
    session,
    section: 'webhooks',
    title: options.rotated ? 'Signing secret rotated' : 'Webhook endpoint added',
    replaceUrl: endpointPage,
    body: html`
      ${noticeLine(html`<strong>Copy this signing secret now. You will not see it again.</strong>`)}
      ${options.rotated ? rotationLine(endpoint, session) : ''}
      ${copyBlock('webhook-secret', 'Signing secret', options.secret)}
      <dl class="facts">
        <dt>URL</dt><dd>${endpoint.url}</dd>
        <dt>Endpoint</dt><dd><code>${endpoint.id}</code></dd>
      </dl>
      <h2>Verify deliveries</h2>
      <p>Each delivery carries the headers <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code>.
        Check them with any Standard Webhooks library and this secret before trusting the body, for example in Node.js:</p>
      <pre class="example">import { Webhook } from 'standardwebhooks';
const event = new Webhook(process.env.CRM_WEBHOOK_SECRET).verify(rawBody, headers);</pre>
      <p><a href="${endpointPage}">Go to the endpoint</a></p>`,
  });
}
