/** What an API token looks like, shared so a gateway can refuse a malformed one without asking a worker. */
export const LIVE_TOKEN_PREFIX = 'sk_live_';
/** 43 base62 characters carry 256 bits. */
export const API_TOKEN_SECRET_LENGTH = 43;

export function looksLikeApiToken(value: string): boolean {
  return value.startsWith(LIVE_TOKEN_PREFIX) && value.length === LIVE_TOKEN_PREFIX.length + API_TOKEN_SECRET_LENGTH && /^[A-Za-z0-9_]+$/.test(value);
}
