import { oauthErrorDescription } from './error-description.js';
import type { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';

/**
 * Every authorization response names its issuer (RFC 9207), so a client talking to several
 * authorization servers can tell whose answer it holds (mix-up attacks).
 */
export function withIssuer(redirectTo: string, issuer: string): string {
  const url = new URL(redirectTo);
  url.searchParams.set('iss', issuer);
  return url.href;
}

/** An error for the client at its redirect URI (RFC 6749 §4.1.2.1), with `state` and `iss`. */
export function errorRedirect(redirectUri: string, error: OAuthError, state: string | undefined, issuer: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set('error', error.errorCode);
  url.searchParams.set('error_description', oauthErrorDescription(error.message));
  if (state) url.searchParams.set('state', state);
  return withIssuer(url.href, issuer);
}
