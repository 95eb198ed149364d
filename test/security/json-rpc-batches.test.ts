import t from 'tap';
import { useStack } from '../helpers/shared-stack.js';

/**
 * One POST with many `tools/call` in a JSON-RPC batch used to run them all while the
 * rate limit counted one request. Batches are refused (the 2025-06-18 protocol removed
 * them), and nothing in the batch runs.
 */
const stack = await useStack(t);
const ws = await stack.bootstrap({ defaultCountry: 'US' });
const token = await stack.token(ws.workspace.id, ['contacts:write']);

const post = (body: unknown) =>
  fetch(`${stack.baseUrl}/mcp/crm`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify(body),
  });

t.test('a batch of 100 tool calls is refused and runs none of them', async (t) => {
  const batch = Array.from({ length: 100 }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'create_contact', arguments: { first_name: `Batch ${i}`, phone: `+1 415 555 ${String(1000 + i).padStart(4, '0')}` } },
  }));
  const res = await post(batch);
  t.equal(res.status, 400);
  t.match(await res.json(), { jsonrpc: '2.0', id: null, error: { code: -32600, message: /Batches are not supported/ } });
  const count = await stack.db.query<{ n: string }>('select count(*) n from contacts where workspace_id = $1', [ws.workspace.id]);
  t.equal(Number(count[0]?.n), 0, 'no contact was created');
});

t.test('one call per request still works', async (t) => {
  const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_contact', arguments: { first_name: 'Single', phone: '+1 415 555 2000' } } });
  t.equal(res.status, 200);
  t.match(await res.json(), { id: 1, result: { structuredContent: { first_name: 'Single' } } });
});

t.test('a method named after an object property is an unknown method, not a server error', async (t) => {
  // Found by the fuzzer: `{"id":null,"method":"constructor"}` answered 500, because the
  // method was looked up in a plain object and found Object's own constructor.
  for (const method of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    const res = await post({ jsonrpc: '2.0', id: 7, method });
    t.ok(res.status < 500, `${method}: ${res.status}`);
    t.match(await res.json(), { jsonrpc: '2.0', error: { code: -32601 } }, `${method}: method not found`);
  }
});

t.test('valid JSON that is not a JSON-RPC message is an invalid request (-32600), not a parse error', async (t) => {
  // The SDK's transport answered these -32700 "Parse error: Invalid JSON-RPC message", and the
  // direct tools/call path ran a call with a member the SDK refuses.
  const invalid: [string, unknown][] = [
    ['1', null],
    ['null', null],
    ['"ping"', null],
    ['{}', null],
    ['{"jsonrpc":"1.0","id":1,"method":"ping"}', 1],
    ['{"jsonrpc":"2.0","id":2,"method":5}', 2],
    ['{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
    ['{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
    ['{"jsonrpc":"2.0","id":3,"method":"ping","extra":1}', 3],
    ['{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"create_contact","arguments":{"first_name":"Extra","phone":"+1 415 555 3000"}},"extra":1}', 4],
  ];
  for (const [body, id] of invalid) {
    const res = await fetch(`${stack.baseUrl}/mcp/crm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    });
    t.equal(res.status, 400, body);
    t.match(await res.json(), { jsonrpc: '2.0', id, error: { code: -32600, message: /^Invalid Request: / } }, body);
  }
  const count = await stack.db.query<{ n: string }>("select count(*) n from contacts where workspace_id = $1 and first_name = 'Extra'", [ws.workspace.id]);
  t.equal(Number(count[0]?.n), 0, 'the call with an extra member did not run');
  const unknownWithArrayParams = await post({ jsonrpc: '2.0', id: 5, method: 'nope', params: [1] });
  t.equal(unknownWithArrayParams.status, 200);
  t.match(await unknownWithArrayParams.json(), { id: 5, error: { code: -32602 } }, 'params that are not an object: invalid params, whatever the method');
  const notification = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  t.equal(notification.status, 202, 'a notification is still accepted');
  t.equal(await notification.text(), '');
});
