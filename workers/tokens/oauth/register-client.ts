import { CLIENT_NAME_CHARACTERS, MAX_CLIENT_METADATA_BYTES, MAX_CLIENT_NAME_LENGTH, MAX_REDIRECT_URIS, SUPPORTED_GRANT_TYPES, SUPPORTED_RESPONSE_TYPES, type registerOAuthClient } from '../../../shared/contracts/oauth.js';
import { jsonb, sqlOf } from '../../../shared/db/sql.js';
import { ValidationError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { checkRedirectUri } from './redirect-uri.js';

/**
 * The requested values this server supports, so the registration answer does not promise the
 * others (RFC 7591 §2 lets the server replace them); none of them, or not `required`: refused.
 */
function supportedValues(field: 'grant_types' | 'response_types', requested: unknown, supported: readonly string[], required: string): string[] | undefined {
  if (requested === undefined) return undefined;
  const kept = Array.isArray(requested) ? supported.filter((value) => requested.includes(value)) : [];
  if (!kept.includes(required)) throw new ValidationError(`${field}: this server supports ${supported.join(' and ')}, and needs ${required}.`, field);
  return kept;
}

/**
 * Dynamic client registration. Every client is public: it authenticates with PKCE, and
 * no secret is issued or kept, whatever it asked for.
 */
export const registerClientHandler: UnscopedHandler<typeof registerOAuthClient> = async ({ input, em }) => {
  const { client_secret: _secret, client_secret_expires_at: _expiry, ...metadata } = input.client;
  if (Array.isArray(metadata.redirect_uris) && metadata.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw new ValidationError(`redirect_uris: at most ${MAX_REDIRECT_URIS}.`, 'redirect_uris');
  }
  const uris = Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.map((uri: unknown, i) => checkRedirectUri(uri, `redirect_uris.${i}`)) : [];
  if (uris.length === 0) throw new ValidationError('redirect_uris: at least one is required.', 'redirect_uris');
  if (typeof metadata.client_id !== 'string') throw new ValidationError('client_id is missing.', 'client_id');
  if (metadata.client_name !== undefined) {
    const name = CLIENT_NAME_CHARACTERS.safeParse(metadata.client_name);
    if (!name.success) throw new ValidationError(name.error.issues[0]?.message ?? 'client_name is not valid.', 'client_name');
    // Kept and shown whole, as a metadata document's: cut short, two names could read as one at consent.
    if (name.data.length > MAX_CLIENT_NAME_LENGTH) throw new ValidationError(`client_name may have at most ${MAX_CLIENT_NAME_LENGTH} characters.`, 'client_name');
  }
  const bytes = Buffer.byteLength(JSON.stringify(metadata));
  if (bytes > MAX_CLIENT_METADATA_BYTES) {
    throw new ValidationError(`The client metadata takes ${bytes} bytes as JSON; at most ${MAX_CLIENT_METADATA_BYTES} are kept, as for a metadata document.`);
  }
  const grantTypes = supportedValues('grant_types', metadata.grant_types, SUPPORTED_GRANT_TYPES, 'authorization_code');
  const responseTypes = supportedValues('response_types', metadata.response_types, SUPPORTED_RESPONSE_TYPES, 'code');
  const client = {
    ...metadata,
    redirect_uris: uris,
    token_endpoint_auth_method: 'none',
    ...(grantTypes && { grant_types: grantTypes }),
    ...(responseTypes && { response_types: responseTypes }),
  };
  await sqlOf(em)
    .insertInto('oauth_clients')
    .values({
      id: metadata.client_id,
      client_name: typeof metadata.client_name === 'string' ? metadata.client_name : null,
      redirect_uris: uris,
      metadata: jsonb(client),
      created_at: new Date(),
    })
    .execute();
  return { client };
};
