import type { Test } from 'tap';
import { DELIVERIES_IN_FLIGHT } from '../../workers/webhooks/deliveries/deliveries-in-flight.js';
import type { DatabaseAccess } from './database.js';
import type { client } from './http.js';
import type { ReceivedWebhook, WebhookReceiver, ReceiverBehaviour } from './webhook-receiver.js';

/** Stack settings under which one endpoint may hold every attempt slot of a webhooks worker, as these tests need. */
export const ONE_ENDPOINT_MAY_HOLD_EVERY_SLOT = {
  WEBHOOK_IN_FLIGHT_PER_ENDPOINT: String(DELIVERIES_IN_FLIGHT),
  WEBHOOK_IN_FLIGHT_PER_WORKSPACE: String(DELIVERIES_IN_FLIGHT),
};

/**
 * A webhooks worker (started with {@link ONE_ENDPOINT_MAY_HOLD_EVERY_SLOT}) with every attempt slot held by a receiver that hangs, and `waiting` more
 * deliveries leased to it, waiting for a slot: a contact written per delivery (phones from
 * `phoneBase` up), and every delivery stored before this returns. What the shutdown tests stop.
 */
export async function deliveriesLeasedBehindHangingOnes(
  t: Test,
  api: ReturnType<typeof client>,
  db: DatabaseAccess,
  receiver: (behaviour?: ReceiverBehaviour) => Promise<WebhookReceiver>,
  { waiting, namePrefix, phoneBase }: { waiting: number; namePrefix: string; phoneBase: number },
): Promise<{ hook: WebhookReceiver; hanging: ReceivedWebhook[] }> {
  const hook = await receiver((n) => (n < DELIVERIES_IN_FLIGHT ? 'hang' : 200));
  const endpoint = await api.post<{ secret: string }>('/v1/webhook-endpoints', { url: hook.url, enabled_events: ['contact.created'] });
  t.equal(endpoint.status, 201);
  hook.secret = endpoint.body.secret;
  const statuses: number[] = [];
  for (let i = 0; i < DELIVERIES_IN_FLIGHT + waiting; i++) statuses.push((await api.post('/v1/contacts', { first_name: `${namePrefix} ${i}`, phone: `+1415${phoneBase + i}` })).status);
  t.ok(statuses.every((s) => s === 201), 'every contact created');
  const hanging = await hook.waitFor(DELIVERIES_IN_FLIGHT);
  // Every event's delivery is stored (leased to the one copy) before it stops.
  for (const until = Date.now() + 20_000; ; ) {
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from webhook_deliveries');
    if (row?.n === DELIVERIES_IN_FLIGHT + waiting) break;
    if (Date.now() > until) throw new Error(`only ${row?.n} deliveries stored`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { hook, hanging };
}
