import { isMetadataClientId } from '../../../shared/auth/metadata-client-id.js';
import { MAX_CLIENT_NAME_LENGTH, type recordMetadataClient } from '../../../shared/contracts/oauth.js';
import { jsonb, sqlOf } from '../../../shared/db/sql.js';
import { ValidationError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { checkRedirectUri } from './redirect-uri.js';
import { userGrantedClient } from './user-granted-client.js';

/**
 * Keeps a client described by its metadata document as a client row, its id the document's
 * URL, refreshed with each fetch the gateway validated. Only URL ids come here, so a
 * registered client (whose id the server generated) can never be overwritten through it.
 * Public like every client: a secret in the document is refused before it gets here.
 */
export const recordMetadataClientHandler: UnscopedHandler<typeof recordMetadataClient> = async ({ input, em, services }) => {
  const { client_id: clientId, client_name: clientName } = input.client;
  if (typeof clientId !== 'string' || !isMetadataClientId(clientId) || !URL.canParse(clientId)) {
    throw new ValidationError('client_id: a metadata document client is identified by its URL.', 'client_id');
  }
  if ('client_secret' in input.client) throw new ValidationError('client_secret: a metadata document client is public.', 'client_secret');
  const uris = Array.isArray(input.client.redirect_uris) ? input.client.redirect_uris.map((uri: unknown) => checkRedirectUri(uri)) : [];
  if (uris.length === 0) throw new ValidationError('redirect_uris: at least one is required.', 'redirect_uris');
  const client = { ...input.client, redirect_uris: uris, token_endpoint_auth_method: 'none' };
  const name = typeof clientName === 'string' ? clientName.slice(0, MAX_CLIENT_NAME_LENGTH) : null;
  await sqlOf(em)
    .insertInto('oauth_clients')
    .values({ id: clientId, client_name: name, redirect_uris: uris, metadata: jsonb(client), created_at: new Date() })
    .onConflict((oc) => oc.column('id').doUpdateSet({ client_name: name, redirect_uris: uris, metadata: jsonb(client) }))
    .execute();
  return { client, user_granted: await userGrantedClient(em, services.secrets.opaqueHashKey, input.session_token, clientId) };
};
