import type { RequestHandler } from 'express';
import { ForbiddenError } from '../../shared/errors.js';
import { sendJsonRpcError } from './json-rpc-error.js';

const LOCAL = ['localhost', '127.0.0.1', '[::1]', '::1'];

function hostnameOf(value: string): string | null {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * DNS-rebinding protection: the Host header (and Origin, when a browser sends one) must
 * name this service, whatever the port: its public host, or a loopback name. A page on
 * evil.example that resolved to this machine gets a 403.
 */
export function allowedHosts(publicUrl: () => string, extra: readonly string[]): RequestHandler {
  // MCP_ALLOWED_HOSTS as an operator may write them (a port, a scheme, capitals): compared as host names.
  const fixed = [...LOCAL, ...extra.map(hostnameOf).filter((h): h is string => h !== null)];
  // Made again only when the public URL changes, not on every tool call.
  let current: { url: string; hosts: ReadonlySet<string> } | undefined;
  const allowedNow = (): ReadonlySet<string> => {
    const url = publicUrl();
    if (current?.url !== url) current = { url, hosts: new Set([...fixed, hostnameOf(url) ?? '']) };
    return current.hosts;
  };
  return (req, res, next) => {
    const allowed = allowedNow();
    const host = hostnameOf(req.get('host') ?? '');
    const origin = req.get('origin');
    const originHost = origin === undefined ? undefined : hostnameOf(origin);
    // Names what was refused and the remedy: behind a proxy that sends its upstream's name as
    // Host (nginx's default), every tool call got "this Host or Origin" and no hint why.
    if (!host || !allowed.has(host)) {
      const named = host ? `The Host ${host}` : 'This Host';
      sendJsonRpcError(res, new ForbiddenError(`Forbidden: ${named} is not served here. A proxy in front must pass on the Host clients use, or the operator lists the name in MCP_ALLOWED_HOSTS.`));
      return;
    }
    if (originHost !== undefined && (!originHost || !allowed.has(originHost))) {
      const named = originHost ? `The Origin ${originHost}` : 'This Origin';
      sendJsonRpcError(res, new ForbiddenError(`Forbidden: ${named} may not use this tool server (DNS-rebinding protection); the operator may list it in MCP_ALLOWED_HOSTS.`));
      return;
    }
    next();
  };
}
