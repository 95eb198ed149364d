import { ValidationError } from '../../../shared/errors.js';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Redirects go to https, or to http on the client's own machine (RFC 8252), nowhere else;
 * the same for registered clients and for those described by a metadata document.
 */
export function checkRedirectUri(uri: unknown): string {
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
