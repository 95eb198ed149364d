import type { WebhookDelivery } from '../../shared/contracts/webhooks.js';
import { html, type Html } from '../pages/html.js';
import { when, type ShownIn } from './format.js';

const STATUS_LABELS: Record<WebhookDelivery['status'], string> = {
  pending: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** A delivery's state in words: succeeded or failed with its last HTTP status, or when it is sent next (or that it is being sent). */
export function deliveryOutcome(delivery: WebhookDelivery | undefined, shownIn: ShownIn): Html {
  if (!delivery) return html`<span class="muted">No deliveries yet</span>`;
  const last = delivery.attempts.at(-1);
  const code = last?.status_code ? ` (HTTP ${last.status_code})` : '';
  if (delivery.status === 'pending') {
    // No next attempt while pending: one is under way.
    return html`${STATUS_LABELS.pending}, ${delivery.next_attempt_at ? html`next attempt ${when(delivery.next_attempt_at, shownIn)}` : 'being sent now'}`;
  }
  return html`<strong>${STATUS_LABELS[delivery.status]}</strong>${code}${last ? html`, ${when(last.attempted_at, shownIn)}` : ''}`;
}
