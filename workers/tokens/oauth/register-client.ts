import type { registerOAuthClient } from '../../../shared/contracts/oauth.js';
import { jsonb, sqlOf } from '../../../shared/db/sql.js';
import { ValidationError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { checkRedirectUri } from './redirect-uri.js';

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
