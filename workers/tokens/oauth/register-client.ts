import type { registerOAuthClient } from '../../../shared/contracts/oauth.js';
import { jsonb, sqlOf } from '../../../shared/db/sql.js';
import { ValidationError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Redirects go to https, or to http on the client's own machine (RFC 8252), nowhere else. */
function checkRedirectUri(uri: unknown): string {
  if (typeof uri !== 'string') throw new ValidationError('redirect_uris: every entry must be a URL.', 'redirect_uris');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ValidationError(`redirect_uris: "${uri}" is not a URL.`, 'redirect_uris');
  }
  if (url.hash) throw new ValidationError('redirect_uris: a redirect URI must not have a fragment.', 'redirect_uris');
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return uri;
  throw new ValidationError(`redirect_uris: "${uri}" must use https (http only for localhost).`, 'redirect_uris');
}

/**
 * Dynamic client registration. Every client is public: it authenticates with PKCE, and
 * no secret is issued or kept, whatever it asked for.
 */
export const registerClientHandler: UnscopedHandler<typeof registerOAuthClient> = async ({ input, em }) => {
  const { client_secret: _secret, client_secret_expires_at: _expiry, ...metadata } = input.client;
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.map(checkRedirectUri) : [];
  if (uris.length === 0) throw new ValidationError('redirect_uris: at least one is required.', 'redirect_uris');
  if (typeof metadata.client_id !== 'string') throw new ValidationError('client_id is missing.', 'client_id');
  const client = { ...metadata, redirect_uris: uris, token_endpoint_auth_method: 'none' };
  await sqlOf(em)
    .insertInto('oauth_clients')
    .values({
      id: metadata.client_id,
      client_name: typeof metadata.client_name === 'string' ? metadata.client_name.slice(0, 200) : null,
      redirect_uris: uris,
      metadata: jsonb(client),
      created_at: new Date(),
    })
    .execute();
  return { client };
};
