import { startStack } from './test/helpers/stack.js';
import { client } from './test/helpers/http.js';
import { startReceiver } from './test/helpers/webhook-receiver.js';
const stack = await startStack({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '200ms,200ms' } });
const r = await startReceiver((n) => (n === 0 ? 500 : 200));
try {
  const ws = await stack.bootstrap({ defaultCountry: 'US' });
  const api = client(stack.baseUrl, await stack.token(ws.workspace.id, ['contacts:write', 'webhooks:write', 'events:read']));
  const ep = await api.post<{ id: string; secret: string }>('/v1/webhook-endpoints', { url: r.url, enabled_events: ['contact.created'] });
  r.secret = ep.body.secret;
  await new Promise((res) => setTimeout(res, 200));
  for (let i = 0; i < 3; i++) await api.post('/v1/contacts', { first_name: 'A', phone: `+1 415 555 010${i}` });
  await new Promise((res) => setTimeout(res, 4000));
  console.log('received', r.received.map((x) => x.event.type));
  console.log((await api.get(`/v1/webhook-endpoints/${ep.body.id}/deliveries`)).body);
  console.log(stack.workers.filter((w) => w.label.includes('webhooks')).map((w) => w.text()).join('').split('\n').filter((l) => /warn|error/.test(l)).slice(0, 10).join('\n'));
} finally { await r.close(); await stack.stop(); }
