import { randomUUID } from 'node:crypto';
import type { BusClient } from '../../shared/bus/bus-client.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { importContacts, type ImportContactsResult, type ImportedContactRow } from '../../shared/contracts/contact-import.js';
import { healthOf } from '../../shared/contracts/health.js';
import { CrmError, UnavailableError } from '../../shared/errors.js';
import type { LocalServices } from '../local-services.js';

/** How batches reach a contacts worker. */
export type SendBatch = (rows: ImportedContactRow[]) => Promise<ImportContactsResult>;

/** A batch is far more work than one API call, and an import is not interactive. */
const BATCH_TIMEOUT_MS = 30_000;
/** Pauses before sending a batch again after `unavailable` (no worker, a restart, a timeout). */
const RETRY_PAUSES_MS = [250, 500, 1_000, 2_000, 4_000];

/**
 * With NATS_URL the batches go to the running contacts workers, like every production
 * write: the import spreads over however many `crm worker contacts` run, and this
 * process only reads the file. Without it (the embedded default) there is no worker to
 * reach, so the batches go over the in-process bus of the command's local services,
 * to the same worker code behind the same contract. (Other commands use the local
 * services for everything; an import is the one whose load belongs on the workers.)
 */
export async function importSender(local: LocalServices, context: CallContext): Promise<SendBatch> {
  const run = randomUUID();
  const bus = local.natsBus;
  if (!bus) return (rows) => sendBatch(local.bus, context, local.requestId, run, rows);
  try {
    await bus.call(healthOf('contacts'), {}, { context: null, requestId: local.requestId });
  } catch (error) {
    if (error instanceof CrmError && error.code === 'unavailable') {
      throw new UnavailableError(`${error.message} With NATS_URL set, the import is written by the contacts workers: start one with "crm worker contacts".`);
    }
    throw error;
  }
  return (rows) => sendBatch(bus, context, local.requestId, run, rows);
}

/**
 * Sends one batch, again after a pause if no worker could take it (or one timed out, or
 * the database rolled the batch back). The batch's idempotency key, this run and its
 * first line, makes a batch sent again after the first copy committed replay that
 * copy's answer, so its rows count as created rather than as already in the workspace.
 */
async function sendBatch(bus: BusClient, context: CallContext, requestId: string, run: string, rows: ImportedContactRow[]): Promise<ImportContactsResult> {
  const idempotencyKey = `contacts-import:${run}:${rows[0]?.line}`;
  for (let attempt = 0; ; attempt++) {
    try {
      return (await bus.call(importContacts, { rows }, { context, requestId, idempotencyKey, timeoutMs: BATCH_TIMEOUT_MS })).result;
    } catch (error) {
      const pause = RETRY_PAUSES_MS[attempt];
      if (!(error instanceof CrmError && error.code === 'unavailable') || pause === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
