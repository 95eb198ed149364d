/** As long as a client id may be anywhere (`ClientId` in shared/contracts/oauth.ts). */
const MAX_CLIENT_ID_LENGTH = 2048;

/**
 * Why a URL offered as `client_id` cannot name a client metadata document, or null. The
 * draft's rules: https (http only with the development switch), a path beyond `/`, no
 * fragment, no user name or password, and no `.`/`..` segments. It must also be written
 * exactly as the URL parser writes it, because the document's `client_id` is compared with
 * it as a string: a URL spelled two ways would be two clients.
 */
export function clientIdUrlProblem(clientId: string, options: { allowHttp: boolean }): string | null {
  if (clientId.length > MAX_CLIENT_ID_LENGTH) return `must be at most ${MAX_CLIENT_ID_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'is not a valid URL';
  }
  if (url.protocol !== 'https:' && !(options.allowHttp && url.protocol === 'http:')) return 'must be an https URL';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (clientId.includes('#')) return 'must not contain a fragment';
  if (url.pathname === '/') return 'must have a path (such as /oauth/client.json)';
  if (url.href !== clientId) return `must be written exactly as ${url.href} (no "." or ".." segments, scheme and host in lower case)`;
  return null;
}
