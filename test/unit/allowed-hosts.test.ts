import type { Request, Response } from 'express';
import t from 'tap';
import { allowedHosts } from '../../gateway/mcp/allowed-hosts.js';

/** The DNS-rebinding check alone: the status it answers (0 when it lets the request through). */
function statusFor(check: ReturnType<typeof allowedHosts>, headers: Record<string, string>): number {
  let status = 0;
  const req = { get: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
  const res = {
    status(code: number) {
      status = code;
      return this;
    },
    json: () => undefined,
  } as unknown as Response;
  void check(req, res, () => undefined);
  return status;
}

t.test('MCP_ALLOWED_HOSTS written with a port or a scheme still names the host', async (t) => {
  // Such entries were compared as written with the Host header's bare name, so they never matched.
  const check = allowedHosts(() => 'https://crm.example.com', ['Internal.Example:8443', 'https://edge.example', 'plain.example']);
  for (const host of ['internal.example:8443', 'edge.example', 'plain.example:3000', 'crm.example.com', 'localhost:4000']) {
    t.equal(statusFor(check, { host }), 0, `${host}: served`);
  }
  t.equal(statusFor(check, { host: 'evil.example' }), 403, 'a foreign Host is refused');
  t.equal(statusFor(check, { host: 'edge.example', origin: 'https://evil.example' }), 403, 'a foreign Origin is refused');
  t.equal(statusFor(check, { host: 'edge.example', origin: 'null' }), 403, 'an opaque Origin is refused');
});

t.test('the public URL is read on each request: a change of it is followed', async (t) => {
  let url = 'https://one.example';
  const check = allowedHosts(() => url, []);
  t.equal(statusFor(check, { host: 'one.example' }), 0);
  url = 'https://two.example';
  t.equal(statusFor(check, { host: 'two.example' }), 0);
  t.equal(statusFor(check, { host: 'one.example' }), 403);
});
