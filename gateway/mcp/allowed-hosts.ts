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
    if (!host || !allowed.has(host) || (originHost !== undefined && (!originHost || !allowed.has(originHost)))) {
      sendJsonRpcError(res, new ForbiddenError('Forbidden: this Host or Origin is not served here.'));
      return;
    }
    next();
  };
}
