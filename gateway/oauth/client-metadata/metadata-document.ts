import { z } from 'zod';
import { CLIENT_NAME_CHARACTERS, MAX_CLIENT_NAME_LENGTH, MAX_REDIRECT_URI_LENGTH, MAX_REDIRECT_URIS } from '../../../shared/contracts/oauth.js';

/**
 * What a client metadata document must say (draft-ietf-oauth-client-id-metadata-document
 * §4): its own URL as `client_id`, its redirect URIs, optionally a name, and nothing of a
 * shared secret, since none can have been exchanged: the client is public (PKCE). Other
 * RFC 7591 fields are kept as they are.
 */
const MetadataDocument = z.looseObject({
  client_id: z.string({ error: 'client_id is required' }),
  client_name: CLIENT_NAME_CHARACTERS.pipe(z.string().max(MAX_CLIENT_NAME_LENGTH, `client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters`)).optional(),
  redirect_uris: z
    .array(z.string({ error: 'redirect_uris must hold strings' }).max(MAX_REDIRECT_URI_LENGTH), { error: 'redirect_uris must be an array of URLs' })
    .min(1, 'redirect_uris must list at least one URL')
    .max(MAX_REDIRECT_URIS, `redirect_uris may list at most ${MAX_REDIRECT_URIS} URLs`),
  token_endpoint_auth_method: z.literal('none', { error: 'token_endpoint_auth_method must be "none" (a public client) or absent' }).optional(),
  client_secret: z.never({ error: 'client_secret must not appear: a client described by a metadata document is public' }).optional(),
  client_secret_expires_at: z.never({ error: 'client_secret_expires_at must not appear: a client described by a metadata document is public' }).optional(),
});
export type MetadataDocument = z.infer<typeof MetadataDocument>;

/** The document, checked; else why not, said so that its author can fix it. */
export function parseMetadataDocument(body: string, url: string): { document: MetadataDocument } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { problem: 'is not JSON' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { problem: 'is not a JSON object' };
  const parsed = MetadataDocument.safeParse(json);
  if (!parsed.success) return { problem: `is not valid: ${parsed.error.issues.map((i) => i.message).join('; ')}` };
  if (parsed.data.client_id !== url) return { problem: `names another client_id ("${parsed.data.client_id.slice(0, 200)}"); it must be the document's URL exactly` };
  return { document: parsed.data };
}
