import type { RequestHandler } from 'express';
import { InvalidClientError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

const NO_SECRETS = 'This server registers public clients only (token_endpoint_auth_method "none") and issues no client secrets: send client_id in the form, with no client_secret';

/**
 * Answered here, ahead of the SDK's handler and so of its CORS: a browser-based client must still
 * read the refusal (the SDK allows any origin). Its rate limit is not needed: nothing is looked up.
 */
export const REFUSAL_HEADERS = { 'Cache-Control': 'no-store', 'Access-Control-Allow-Origin': '*' };

/** `Basic base64(client_id:client_secret)`, each part form-encoded (RFC 6749 §2.3.1); null when it is not that. */
function basicCredentials(credentials: string): { id: string; secret: string } | null {
  const text = Buffer.from(credentials, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  try {
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return null;
  }
}

/**
 * The token and revocation endpoints take public clients only, which authenticate by no
 * secret (the metadata says `none`). A client that tries to authenticate anyway is told so
 * instead of being let through as if it had: with an Authorization header, a 401 naming the
 * scheme it used (RFC 6749 §5.2 requires it); with a client_secret in the form, a 400
 * invalid_client. `Basic` with the client id and an empty secret is read as that client id,
 * which is what some libraries send for a public client. Runs after the form is parsed.
 */
export function publicClientAuthentication(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const body = (req.body ?? {}) as Record<string, unknown>;
    const header = req.get('authorization');
    if (header !== undefined) {
      const [scheme = '', credentials = ''] = header.trim().split(/\s+/, 2);
      const basic = scheme.toLowerCase() === 'basic' ? basicCredentials(credentials) : null;
      if (basic && basic.id !== '' && basic.secret === '' && body.client_secret === undefined && (body.client_id === undefined || body.client_id === basic.id)) {
        req.body = { ...body, client_id: basic.id };
        return next();
      }
      const error = new InvalidClientError(`${NO_SECRETS} (the request has an Authorization header).`);
      // The challenge names the scheme the client used, as RFC 6749 §5.2 asks; one that is no token (RFC 9110 §11.1) reads as Basic.
      const challenge = scheme.toLowerCase() === 'basic' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(scheme) ? 'Basic' : scheme;
      return res.status(401).set({ ...REFUSAL_HEADERS, 'WWW-Authenticate': `${challenge} realm="oauth"` }).json(error.toResponseObject());
    }
    if (body.client_secret !== undefined) {
      return res.status(400).set(REFUSAL_HEADERS).json(new InvalidClientError(`${NO_SECRETS}.`).toResponseObject());
    }
    next();
  };
}
