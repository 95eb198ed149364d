import { sql } from 'kysely';
import type { Config } from '../../../shared/config.js';
import { workspaceEm, type EntityManager, type Orm } from '../../../shared/db/orm.js';
import { workspaceSql, type WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import type { Logger } from '../../../shared/logger.js';
import type { Secrets } from '../../../shared/secrets.js';
import { openWebhookSecret } from '../endpoints/endpoint-secret.js';
import { previousSecretExpiry, type WebhookEndpointRow } from '../endpoints/endpoint-resource.js';
import type { AttemptBatch } from './attempt-batch.js';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../../shared/contracts/webhook-payload.js';
import { endpointWants, notSentUnsubscribed } from '../endpoints/endpoint-wants.js';
import type { WebhookDeliveryRow } from './delivery-resource.js';
import { noteEndpointFailure } from './disable-failing-endpoint.js';
import { retryDelayMs } from './retry-schedule.js';
import type { OutboundNetwork } from '../../../shared/ssrf/outbound-network.js';
import { sendWebhook, type AttemptOutcome } from './send-webhook.js';

export interface DeliveryDeps {
  orm: Orm;
  secrets: Pick<Secrets, 'webhookSecretKey'>;
  settings: Config['webhooks'];
  log: Logger;
  /** The system's DNS and sockets unless a test injects its own. */
  network?: OutboundNetwork;
}

/** What sending needs of an endpoint: the fan-out that queued a delivery already has it. */
export type DeliveryEndpoint = Pick<
  WebhookEndpointRow,
  'id' | 'url' | 'status' | 'enabled_events' | 'secret_encrypted' | 'previous_secret_encrypted' | 'previous_secret_expires_at' | 'failing_since'
>;
export const DELIVERY_ENDPOINT_COLUMNS = [
  'id',
  'url',
  'status',
  'enabled_events',
  'secret_encrypted',
  'previous_secret_encrypted',
  'previous_secret_expires_at',
  'failing_since',
] as const satisfies readonly (keyof DeliveryEndpoint)[];

/** Each logger's child for the line of a success: fixed fields, none a secret, so it skips the redaction (a cost on every delivery). */
const SUCCESS_LINES = new WeakMap<Logger, Logger>();

function successLines(log: Logger): Logger {
  let lines = SUCCESS_LINES.get(log);
  if (!lines) SUCCESS_LINES.set(log, (lines = log.child({}, { redact: [] })));
  return lines;
}

/** What a delivery that came due while its endpoint was disabled shows for it. */
export const NOT_SENT_DISABLED = 'Not sent: the endpoint is disabled. Enable it, then retry this delivery.';

/** Opened secrets by their sealed text, so a burst to one endpoint decrypts once; bounded. */
const OPENED = new Map<string, string>();
const OPENED_MAX = 1_000;

function secretOf(deps: DeliveryDeps, sealed: string): string {
  const known = OPENED.get(sealed);
  if (known) return known;
  const secret = openWebhookSecret(deps.secrets, sealed);
  if (OPENED.size >= OPENED_MAX) OPENED.delete(OPENED.keys().next().value as string);
  OPENED.set(sealed, secret);
  return secret;
}

/**
 * Sends one claimed delivery and stores the attempt: a success settles it, a failure
 * schedules the next attempt (or fails it once the schedule is spent) and counts against
 * the endpoint. Returns when it is due next, if ever.
 */
export async function attemptDelivery(claimed: WebhookDeliveryRow, deps: DeliveryDeps, attempts: AttemptBatch, known?: DeliveryEndpoint): Promise<Date | null> {
  const em = workspaceEm(deps.orm, claimed.workspace_id);
  const db = workspaceSql(em, claimed.workspace_id);
  const endpoint = known ?? (await db.selectFrom('webhook_endpoints').select(DELIVERY_ENDPOINT_COLUMNS).where('id', '=', claimed.endpoint_id).executeTakeFirst());
  // Deleted meanwhile: its deliveries went with it.
  if (!endpoint) return null;
  // A disabled endpoint receives nothing, and an endpoint only the types it enables now; a
  // retry by hand once that changes back sends it. The delivery says why it failed without
  // an attempt (no request was sent, none is counted).
  const notSent =
    endpoint.status !== 'enabled' ? NOT_SENT_DISABLED : endpointWants(endpoint.enabled_events, claimed.event_type) ? null : notSentUnsubscribed(claimed.event_type);
  if (notSent !== null) {
    const now = new Date();
    await em.transactional(async (tx) => {
      const txDb = db.within(tx);
      const settled = await txDb
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', next_attempt_at: null, leased_until: null, updated_at: now })
        .where('id', '=', claimed.id)
        .where('attempt_count', '=', claimed.attempt_count)
        .executeTakeFirst();
      if (settled.numUpdatedRows === 0n) return;
      await txDb
        .insertInto('webhook_delivery_attempts')
        .values({ workspace_id: claimed.workspace_id, delivery_id: claimed.id, attempted_at: now, status_code: null, latency_ms: 0, succeeded: false, error: notSent })
        .execute();
    });
    return null;
  }

  const outcome = await sendWebhook(
    {
      url: endpoint.url,
      id: claimed.id,
      payload: claimed.payload,
      secret: secretOf(deps, endpoint.secret_encrypted),
      // Checked at each attempt, so the previous secret stops signing when its time is up.
      previousSecret: previousSecretExpiry(endpoint) === null ? undefined : secretOf(deps, endpoint.previous_secret_encrypted as string),
    },
    { timeoutMs: deps.settings.timeoutMs, allowPrivateNetworks: deps.settings.allowPrivateNetworks, network: deps.network },
  );
  const now = new Date();
  const attemptCount = claimed.attempt_count + 1;
  const isTest = claimed.event_type === WEBHOOK_TEST_EVENT_TYPE;
  const delay = outcome.succeeded || isTest ? null : retryDelayMs(deps.settings.retrySchedule, attemptCount);
  const next = delay === null ? null : new Date(now.getTime() + delay);
  const status = outcome.succeeded ? 'succeeded' : next === null ? 'failed' : 'pending';

  if (isTest || outcome.succeeded) {
    // The common case, stored with the other attempts of the moment in one statement (a
    // success also ends its endpoint's failing spell there; a test event's failure counts for nothing).
    await attempts.store({
      workspaceId: claimed.workspace_id,
      deliveryId: claimed.id,
      attemptedAt: now,
      statusCode: outcome.statusCode,
      latencyMs: outcome.latencyMs,
      succeeded: outcome.succeeded,
      error: outcome.error,
      status,
      attemptCount,
      nextAttemptAt: next,
    });
  } else {
    await storeFailure(db, em, { claimed, endpoint, outcome, now, attemptCount, status, next }, deps);
  }

  const fields = { delivery_id: claimed.id, endpoint_id: endpoint.id, event_id: claimed.event_id, attempt: attemptCount, status_code: outcome.statusCode, ms: outcome.latencyMs };
  if (outcome.succeeded) successLines(deps.log).info(fields, 'webhook delivered');
  else deps.log.warn({ ...fields, error: outcome.error, refused_address: outcome.refusedAddress, next_attempt_at: next?.toISOString() ?? null, status }, 'webhook attempt failed');
  return next;
}

/**
 * A failed attempt on its own, in a transaction with its endpoint's state: it counts
 * against the endpoint (and may disable it).
 */
async function storeFailure(
  db: WorkspaceSql,
  em: EntityManager,
  { claimed, endpoint, outcome, now, attemptCount, status, next }: {
    claimed: WebhookDeliveryRow;
    endpoint: DeliveryEndpoint;
    outcome: AttemptOutcome;
    now: Date;
    attemptCount: number;
    status: 'pending' | 'succeeded' | 'failed';
    next: Date | null;
  },
  deps: DeliveryDeps,
): Promise<void> {
  const attempt = db.insertInto('webhook_delivery_attempts').values({
    workspace_id: claimed.workspace_id,
    delivery_id: claimed.id,
    attempted_at: now,
    status_code: outcome.statusCode,
    latency_ms: outcome.latencyMs,
    succeeded: outcome.succeeded,
    error: outcome.error,
  });
  const settle = db
    .updateTable('webhook_deliveries')
    .set({ status, attempt_count: attemptCount, next_attempt_at: next, leased_until: null, last_attempt_at: now, updated_at: now })
    .where('id', '=', claimed.id)
    // As in AttemptBatch: only from the state the attempt started in.
    .where('attempt_count', '=', claimed.attempt_count);
  await em.transactional(async (tx) => {
    const txDb = db.within(tx);
    // The endpoint first, as its deletion locks it before its deliveries (the other order
    // could deadlock with it); held, a deletion waits for this attempt to be stored.
    const current = await txDb.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).forUpdate().executeTakeFirst();
    // Deleted meanwhile, with its deliveries: nothing to store.
    if (!current) return;
    const exists = await txDb.selectFrom('webhook_deliveries').select('id').where('id', '=', claimed.id).executeTakeFirst();
    if (!exists) return;
    await sql`with attempt as (${attempt}) ${settle}`.execute(txDb.global);
    await noteEndpointFailure(txDb, current, now, deps.settings.disableAfterMs);
  });
}
