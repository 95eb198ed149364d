import { MAX_REDIRECT_URI_LENGTH } from '../../../shared/contracts/oauth.js';
import { ValidationError } from '../../../shared/errors.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Redirects go to https, or to http on the client's own machine (RFC 8252), nowhere else;
 * the same for registered clients and for those described by a metadata document. `param`
 * names the entry (`redirect_uris.2`), so that registration answers invalid_redirect_uri.
 */
export function checkRedirectUri(uri: unknown, param = 'redirect_uris'): string {
  if (typeof uri !== 'string') throw new ValidationError('redirect_uris: every entry must be a URL.', param);
  // /oauth/authorize takes no longer redirect_uri, so a longer one could never be used.
  if (uri.length > MAX_REDIRECT_URI_LENGTH) throw new ValidationError(`redirect_uris: a redirect URI may have at most ${MAX_REDIRECT_URI_LENGTH} characters; one has ${uri.length}.`, param);
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new ValidationError(`redirect_uris: "${uri}" is not a URL.`, param);
  }
  // An empty fragment (`…/cb#`) is one too (RFC 6749 §3.1.2), though URL reads its hash as ''.
  if (uri.includes('#')) throw new ValidationError('redirect_uris: a redirect URI must not have a fragment.', param);
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return uri;
  throw new ValidationError(`redirect_uris: "${uri}" must use https (http only for localhost).`, param);
}
