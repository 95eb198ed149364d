/**
 * Whether a client id is the URL of a client metadata document rather than an id this
 * server generated at registration (a UUID, never a URL): such a client describes itself
 * at that URL (draft-ietf-oauth-client-id-metadata-document). http counts too, so that
 * it is refused with a reason (or, in development, allowed) instead of "unknown client".
 */
export function isMetadataClientId(clientId: string): boolean {
  return /^https?:\/\//i.test(clientId);
}
