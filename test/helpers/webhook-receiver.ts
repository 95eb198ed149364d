import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got, and whether the secret it holds verified it (the `standardwebhooks` library). */
export interface ReceivedWebhook {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; workspace_id: string | null; data: { object: Record<string, unknown> } };
  verified: boolean;
  receivedAt: number;
}

/** What the receiver answers to its n-th request (0 first): a status, or `hang` to never answer. */
export type ReceiverBehaviour = (n: number) => number | 'hang';

/**
 * An HTTP receiver on 127.0.0.1 that verifies each delivery with the secret it is given
 * (set once the endpoint is created), and counts connections.
 */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  connections: number;
  secret: string;
  /** Resolves once `count` requests (all, or matching `where`) have arrived. */
  waitFor(count: number, where?: (r: ReceivedWebhook) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: ReceiverBehaviour = () => 200, path = '/hook'): Promise<WebhookReceiver> {
  const hanging = new Set<http.ServerResponse>();
  let n = 0;
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    connections: 0,
    secret: '',
    waitFor: async (count, where = () => true, timeoutMs = 20_000) => {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const matching = receiver.received.filter(where);
        if (matching.length >= count) return matching;
        if (Date.now() > until) throw new Error(`receiver got ${matching.length} of ${count} deliveries in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      try {
        new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        // Recorded as not verified.
      }
      receiver.received.push({
        id: String(req.headers['webhook-id']),
        headers: req.headers,
        body,
        event: JSON.parse(body) as ReceivedWebhook['event'],
        verified,
        receivedAt: performance.now(),
      });
      const answer = behaviour(n++);
      if (answer === 'hang') hanging.add(res);
      else res.writeHead(answer).end(answer >= 200 && answer < 300 ? 'ok' : 'no');
    });
  });
  server.on('connection', () => receiver.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/** Starts receivers as a test file asks for them (`started` lists them); every one is closed when `t` ends. */
export function receiversClosedWith(t: { teardown(fn: () => unknown): void }) {
  const started: WebhookReceiver[] = [];
  t.teardown(() => Promise.all(started.map((r) => r.close())));
  const start = async (behaviour?: ReceiverBehaviour): Promise<WebhookReceiver> => {
    const r = await startReceiver(behaviour);
    started.push(r);
    return r;
  };
  return Object.assign(start, { started: started as readonly WebhookReceiver[] });
}
