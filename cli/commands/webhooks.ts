import { loadConfig } from '../../shared/config.js';
import { newId } from '../../shared/ids.js';
import { CLI_ACTOR } from '../../workers/runtime/events/event-actor.js';
import { sendWebhook } from '../../workers/webhooks/deliveries/send-webhook.js';
import { newWebhookSecret } from '../../workers/webhooks/endpoints/endpoint-secret.js';
import { WEBHOOK_TEST_EVENT_TYPE, type WebhookEvent } from '../../shared/contracts/webhook-payload.js';
import { systemResolver } from '../../shared/ssrf/delivery-address.js';
import { webhookUrlProblem } from '../../workers/webhooks/ssrf/webhook-url-problem.js';
import { parseCommandArgs } from '../args.js';
import { printJson, printLines } from '../output.js';
import { UsageError } from '../usage-error.js';
import { WEBHOOK_SECRET_ENV, WEBHOOK_SECRET_OPTIONS, WEBHOOK_SECRET_SOURCES, webhookSecretFrom } from '../webhook-secret-source.js';

export const usage = `Usage: crm webhooks test URL [--secret-stdin] [--json]

Sends one signed test event (type ${WEBHOOK_TEST_EVENT_TYPE}) to URL, as the service delivers
webhooks: Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature),
https to a public address only (unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=true), no redirects
followed, WEBHOOK_TIMEOUT. Signs with the whsec_… secret given in ${WEBHOOK_SECRET_ENV} or
on standard input (--secret-stdin), or with a new secret it prints, so the receiver can
verify the delivery. Exits 1 when the receiver did not answer 2xx, 2 when the URL is one the
service would refuse.

${WEBHOOK_SECRET_SOURCES}`;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub !== 'test') throw new UsageError(sub ? `Unknown webhooks command: ${sub}.` : 'Missing the webhooks command.', usage);
  const args = parseCommandArgs(rest, { ...WEBHOOK_SECRET_OPTIONS, json: { type: 'boolean' } }, usage);
  const [url, ...extra] = args.positionals;
  if (!url || extra.length > 0) throw new UsageError('Give exactly one URL.', usage);
  const given = await webhookSecretFrom(args, usage);

  const settings = loadConfig().webhooks;
  const problem = await webhookUrlProblem(url, { resolve: systemResolver, allowPrivateNetworks: settings.allowPrivateNetworks });
  // A URL the service would refuse is a mistake in the call (exit 2), not a failed delivery (exit 1).
  if (problem !== null) throw new UsageError(`The URL ${problem}.`, usage);

  const secret = given ?? newWebhookSecret();
  const now = new Date();
  const event: WebhookEvent = {
    object: 'event',
    id: newId('event', now.getTime()),
    type: WEBHOOK_TEST_EVENT_TYPE,
    workspace_id: null,
    created_at: now.toISOString(),
    request_id: null,
    actor: CLI_ACTOR,
    data: { object: { url }, previous_attributes: null },
  };
  const id = newId('webhookMessage', now.getTime());
  const outcome = await sendWebhook({ url, id, payload: JSON.stringify(event), secret }, settings);

  const result = { id, url, succeeded: outcome.succeeded, status_code: outcome.statusCode, latency_ms: outcome.latencyMs, error: outcome.error, ...(given ? {} : { secret }) };
  if (args.values.json) printJson(result);
  else {
    printLines(
      outcome.succeeded ? `Delivered ${id} to ${url}: HTTP ${outcome.statusCode} in ${outcome.latencyMs} ms.` : `Not delivered to ${url}: ${outcome.error} (${outcome.latencyMs} ms).`,
      ...(given ? [] : [`Signed with the new secret ${secret}`]),
    );
  }
  if (!outcome.succeeded) process.exitCode = 1;
}
