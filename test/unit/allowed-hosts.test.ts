import type { Request, Response } from 'express';
import t from 'tap';
import { allowedHosts } from '../../gateway/mcp/allowed-hosts.js';

/** The DNS-rebinding check alone: the status it answers (0 when it lets the request through) and its message. */
function answerTo(check: ReturnType<typeof allowedHosts>, headers: Record<string, string>): { status: number; message: string } {
  let status = 0;
  let message = '';
  const req = { get: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
  const res = {
    status(code: number) {
      status = code;
      return this;
    },
    json: (body: { error?: { message?: string } }) => {
      message = body.error?.message ?? '';
    },
  } as unknown as Response;
  void check(req, res, () => undefined);
  return { status, message };
}

const statusFor = (check: ReturnType<typeof allowedHosts>, headers: Record<string, string>) => answerTo(check, headers).status;

t.test('a refusal names the Host or Origin refused and the remedy', async (t) => {
  // Behind a proxy that sent its upstream's name as Host, every tool call was "this Host or Origin is not served here".
  const check = allowedHosts(() => 'https://crm.example.com', []);
  const byHost = answerTo(check, { host: 'crm-gateway:3000' });
  t.equal(byHost.status, 403);
  t.match(byHost.message, /The Host crm-gateway is not served here\. A proxy in front must pass on the Host clients use, or the operator lists the name in MCP_ALLOWED_HOSTS\./);
  const byOrigin = answerTo(check, { host: 'crm.example.com', origin: 'https://evil.example' });
  t.equal(byOrigin.status, 403);
  t.match(byOrigin.message, /The Origin evil\.example may not use this tool server/);
});

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
