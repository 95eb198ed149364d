#!/usr/bin/env -S node --max-semi-space-size=32
import './v8-tuning.js';
import { ConfigError } from '../shared/config.js';
import { PACKAGE_VERSION } from '../shared/package-version.js';
import { CrmError } from '../shared/errors.js';
import { isClosedStdout } from './closed-stdout.js';
import { databaseRefusal } from './database-refusal.js';
import { UsageError } from './usage-error.js';

/** `crm`: every way to run and administer the service. One module per command, loaded on demand. */
const COMMANDS: Record<string, { summary: string; load: () => Promise<{ run(argv: string[]): Promise<void>; usage: string }> }> = {
  start: { summary: 'run gateway and all workers in one process (what npm start runs)', load: () => import('./commands/start.js') },
  gateway: { summary: 'run the HTTP gateway (needs NATS_URL)', load: () => import('./commands/gateway.js') },
  worker: { summary: 'run one or more workers: contacts, deals, schema, tokens, webhooks', load: () => import('./commands/worker.js') },
  migrate: { summary: 'apply database migrations', load: () => import('./commands/migrate.js') },
  bootstrap: { summary: 'create an organization, a workspace and its administrator', load: () => import('./commands/bootstrap.js') },
  users: { summary: 'users add: add a member to a workspace', load: () => import('./commands/users.js') },
  tokens: { summary: 'tokens create|list|revoke: manage API tokens', load: () => import('./commands/tokens.js') },
  'mcp-config': { summary: 'print the mcpServers client configuration for both tool servers', load: () => import('./commands/mcp-config.js') },
  keys: { summary: 'keys rotate: start signing OAuth access tokens with a new key', load: () => import('./commands/keys.js') },
  nats: { summary: 'nats config|keys: NATS permissions and identities for each process role', load: () => import('./commands/nats.js') },
  events: { summary: 'events tail: follow a workspace\'s change history as JSON lines; events setup-stream: apply the stream\'s retention', load: () => import('./commands/events.js') },
  webhooks: { summary: 'webhooks test URL: send a signed test event, as webhook deliveries are sent', load: () => import('./commands/webhooks.js') },
  import: { summary: 'import contacts FILE.csv: bulk-import contacts from CSV (re-runnable)', load: () => import('./commands/import.js') },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  return [
    'Usage: crm <command> [options]   (crm <command> --help for details; crm --version)',
    '',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    '',
    'Without DATABASE_URL and NATS_URL every command uses the embedded default under ./.data.',
  ].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const [first, ...afterFirst] = argv;
  // `crm help tokens` as `crm tokens --help`, as git and npm read it.
  const [name, ...rest] = first === 'help' && afterFirst[0] !== undefined ? [afterFirst[0], '--help'] : [first, ...afterFirst];
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${help()}\n`);
    return;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    process.stdout.write(`crm ${PACKAGE_VERSION}\n`);
    return;
  }
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`Unknown command: ${name}.`, help());
  const loaded = await command.load();
  // Here, not in each command: one with subcommands would read --help as an unknown subcommand.
  if (rest[0] === '--help' || rest[0] === '-h') {
    process.stdout.write(`${loaded.usage}\n`);
    return;
  }
  await loaded.run(rest);
}

/** An error of the operating system's (a port in use, a file it may not read): its message says what and where; a stack would bury it. */
function isSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

// A reader that stops early (`| head`) is no error: without a listener, the next write would end the process with a stack trace.
process.stdout.on('error', (error) => {
  if (!isClosedStdout(error)) throw error;
});

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`crm: ${error.message}\n${error.usage ? `\n${error.usage}\n` : ''}`);
    process.exit(2);
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`crm: ${error.message}\n`);
    process.exit(1);
  }
  if (error instanceof CrmError) {
    // The message names what it is about; `param` is the API's field name (`id` for TOKEN_ID), which a CLI user never typed.
    process.stderr.write(`crm: ${error.message}\n`);
    process.exit(1);
  }
  const refusal = databaseRefusal(error);
  if (refusal) {
    process.stderr.write(`crm: ${refusal.message}\n`);
    process.exit(1);
  }
  if (isSystemError(error)) {
    const hint = error.code === 'EADDRINUSE' ? ' Another process listens there: stop it, or set PORT (ADMIN_PORT for the admin server) to a free port.' : '';
    process.stderr.write(`crm: ${error.message}.${hint}\n`);
    process.exit(1);
  }
  process.stderr.write(`crm: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
