import { isWebhookSecret } from '../workers/webhooks/endpoints/endpoint-secret.js';
import type { ParsedArgs } from './args.js';
import { secretLineFromStdin } from './stdin-line.js';
import { UsageError } from './usage-error.js';

/** The environment variable `crm webhooks test` reads a signing secret from (the name the console's receiver example uses). */
export const WEBHOOK_SECRET_ENV = 'CRM_WEBHOOK_SECRET';

export const WEBHOOK_SECRET_OPTIONS = { secret: { type: 'string' }, 'secret-stdin': { type: 'boolean' } } as const;

/** How the usage text says where a secret may come from. */
export const WEBHOOK_SECRET_SOURCES = `--secret-stdin reads the first line of standard input (typed without echo on a terminal). --secret whsec_… still works but
warns: on the command line the secret lands in shell history and the process list.`;

/**
 * The secret to sign with, or undefined for a new one: --secret-stdin, else --secret (with a
 * warning on stderr: no webhook secret belongs in a log), else CRM_WEBHOOK_SECRET.
 */
export async function webhookSecretFrom(args: ParsedArgs, usage: string): Promise<string | undefined> {
  const option = typeof args.values.secret === 'string' ? args.values.secret : undefined;
  let source: string;
  let secret: string | undefined;
  if (args.values['secret-stdin'] === true) {
    if (option !== undefined) throw new UsageError('Give --secret or --secret-stdin, not both.', usage);
    source = 'The secret read from standard input';
    secret = (await secretLineFromStdin('Signing secret (whsec_…): ')).trim();
    if (secret === '') throw new UsageError('--secret-stdin read no secret from standard input.', usage);
  } else if (option !== undefined) {
    process.stderr.write(`crm: --secret puts the secret in shell history and the process list; give it in ${WEBHOOK_SECRET_ENV} or with --secret-stdin instead.\n`);
    source = '--secret';
    secret = option;
  } else {
    source = WEBHOOK_SECRET_ENV;
    secret = process.env[WEBHOOK_SECRET_ENV] || undefined;
  }
  if (secret !== undefined && !isWebhookSecret(secret)) throw new UsageError(`${source} must be a whsec_… secret: whsec_ and the key in base64.`, usage);
  return secret;
}
