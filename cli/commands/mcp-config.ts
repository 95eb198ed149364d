import { isTokenEnvName, mcpClientConfig } from '../../shared/auth/mcp-servers.js';
import { loadConfig } from '../../shared/config.js';
import { optional, parseCommandArgs, withoutPositionals } from '../args.js';
import { printJson } from '../output.js';
import { UsageError } from '../usage-error.js';

export const usage = `Usage: crm mcp-config [--token-env NAME] [--url BASE_URL]

Prints the client configuration for both tool servers:
  {"mcpServers":{"crm":{"url":…},"studio":{"url":…}}}
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
  const base = optional(args, 'url') ?? config.publicUrl ?? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${config.port}`;
  printJson(mcpClientConfig(base, tokenEnv));
}
