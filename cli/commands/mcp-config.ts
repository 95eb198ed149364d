import { isTokenEnvName, MCP_SERVERS, mcpClientConfig } from '../../shared/auth/mcp-servers.js';
import { loadConfig } from '../../shared/config.js';
import { localBaseUrl } from '../../shared/net/local-base-url.js';
import { optional, parseCommandArgs, withoutPositionals } from '../args.js';
import { printJson } from '../output.js';
import { UsageError } from '../usage-error.js';

export const usage = `Usage: crm mcp-config [--token-env NAME] [--url BASE_URL]

Prints the client configuration for both tool servers:
  {"mcpServers":{"crm":{"type":"http","url":…},"studio":{…}}}
(the form of Claude Code's .mcp.json; other clients take the same url and headers).
Interactive clients (a browser sign-in) need nothing more. For non-interactive ones
(cloud agents, CI), --token-env NAME adds "headers":{"Authorization":"Bearer \${NAME}"}:
the token is referenced from the environment, never written out.
The base URL is --url, else PUBLIC_URL, else http://HOST:PORT.`;

export async function run(argv: string[]): Promise<void> {
  const args = withoutPositionals(parseCommandArgs(argv, { 'token-env': { type: 'string' }, url: { type: 'string' } }, usage), usage);
  const config = loadConfig();
  const tokenEnv = optional(args, 'token-env');
  if (tokenEnv !== undefined && !isTokenEnvName(tokenEnv)) {
    throw new UsageError('--token-env takes the name of an environment variable, e.g. CRM_TOKEN (not the token itself).', usage);
  }
  const url = optional(args, 'url');
  const problem = url === undefined ? null : baseUrlProblem(url);
  if (problem) throw new UsageError(`--url ${problem}`, usage);
  // PORT=0 is chosen when the gateway starts: this command cannot know it.
  if (url === undefined && config.publicUrl === undefined && config.port === 0) {
    throw new UsageError('PORT=0 picks a free port when the gateway starts, so the address is not known here: give --url, or set PUBLIC_URL.', usage);
  }
  // Its origin (lower case, no default port), as clients normalise it and PUBLIC_URL is kept.
  const base = (url === undefined ? undefined : new URL(url).origin) ?? config.publicUrl ?? localBaseUrl(config.host, config.port);
  printJson(mcpClientConfig(base, tokenEnv));
}

/** Why `text` cannot be the base the server paths are appended to (a client would get addresses that answer nothing), or null. */
function baseUrlProblem(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `takes the service's base URL, e.g. https://crm.example.com; "${text}" is not a URL.`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return `must be an http or https URL, not ${url.protocol}.`;
  if (url.search || url.hash) return 'takes the base URL alone, without a query or a fragment.';
  const path = url.pathname.replace(/\/+$/, '');
  const server = Object.values(MCP_SERVERS).find((s) => path.endsWith(s.path));
  if (server) return `takes the service's base URL, without ${server.path}: the server paths are added to it.`;
  // The servers' shared prefix (/mcp): appended to, it would give /mcp/mcp/crm, which answers nothing.
  const prefix = MCP_SERVERS.crm.path.slice(0, MCP_SERVERS.crm.path.lastIndexOf('/'));
  if (path.endsWith(prefix)) return `takes the service's base URL, without ${prefix}: the server paths (${Object.values(MCP_SERVERS).map((s) => s.path).join(', ')}) are added to it.`;
  // As PUBLIC_URL: the service answers at the root of its host, so a prefix gives addresses whose OAuth resource matches no server.
  if (path !== '') return `takes the service's address without a path, e.g. https://crm.example.com: the service is served at the root of its host, as PUBLIC_URL is.`;
  if (url.username || url.password) return 'takes the service\'s address without a user name or password.';
  return null;
}
