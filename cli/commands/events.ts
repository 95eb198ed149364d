import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../shared/config.js';
import { CrmError } from '../../shared/errors.js';
import { isMadeId } from '../../shared/ids.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { EventFilters, listEvents, type Event } from '../../shared/contracts/events.js';
import { eventStreamName } from '../../shared/events/event-stream.js';
import { createLogger } from '../../shared/logger.js';
import { ensureEventStream } from '../../workers/webhooks/relay/event-stream-setup.js';
import { optional, parseCommandArgs, parseDuration, required, withoutPositionals } from '../args.js';
import { connectCommandNats } from '../command-nats.js';
import { requireNats } from '../environment.js';
import { printLines } from '../output.js';
import type { LocalServices } from '../local-services.js';
import { UsageError } from '../usage-error.js';
import { withLocalServices } from '../with-local-services.js';
import { untilInterrupted } from '../event-tail/interruption.js';
import { tailStream } from '../event-tail/stream-tail.js';

export const usage = `Usage: crm events tail --workspace WORKSPACE [--type TYPE] [--since 1h]
       crm events setup-stream

setup-stream creates the JetStream stream <BUS_NAMESPACE>-events, or brings it to
EVENTS_STREAM_MAX_AGE and EVENTS_STREAM_REPLICAS (the relay only creates a missing stream).

tail follows the workspace's change history until interrupted: one JSON line per event, as
GET /v1/events/{id} returns it. TYPE is an event type (deal.stage_changed) or a prefix
ending in a dot (contact.); --since starts that far back (default: from now).
With NATS_URL the events come from the JetStream stream <BUS_NAMESPACE>-events, and no
database is needed: WORKSPACE is then the workspace id (a name only with DATABASE_URL),
and a stream not created yet is waited for. Without NATS_URL, from the history in the
database, polled every second.`;

const POLL_MS = 1_000;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'tail') return tail(rest);
  if (sub === 'setup-stream') return setUpStream(rest);
  throw new UsageError(sub ? `Unknown events command: ${sub}.` : 'Missing the events command.', usage);
}

async function tail(argv: string[]): Promise<void> {
  const args = withoutPositionals(parseCommandArgs(argv, { workspace: { type: 'string' }, type: { type: 'string' }, since: { type: 'string' } }, usage), usage);
  const workspaceRef = required(args, 'workspace', usage);
  const checked = EventFilters.shape.type.safeParse(optional(args, 'type'));
  if (!checked.success) throw new UsageError(`--type ${checked.error.issues[0]?.message ?? 'is not an event type'}.`, usage);
  // As checked (trimmed): it becomes a subject token in stream mode, where a space is not allowed.
  const type = checked.data;
  const sinceText = optional(args, 'since');
  const since = sinceText === undefined ? new Date() : new Date(Date.now() - parseDuration(sinceText, usage));

  const print = (event: Event) => process.stdout.write(`${JSON.stringify(event)}\n`);
  const config = loadConfig();
  if (config.natsUrl) {
    const workspaceId = await streamWorkspaceId(workspaceRef, config.databaseUrl !== undefined);
    await tailStream({ ...config, natsUrl: config.natsUrl }, { workspaceId, type, since, print });
    return;
  }
  await withLocalServices(async (services) => {
    const { context } = await services.inWorkspace(workspaceRef);
    await byPolling(services, context, type, since, print, untilInterrupted());
  }, 'crm events');
}

/** Only the command line may change the stream (shared/bus/nats-permissions.ts says why). */
async function setUpStream(argv: string[]): Promise<void> {
  withoutPositionals(parseCommandArgs(argv, {}, usage), usage);
  const config = loadConfig();
  const url = requireNats(config, 'events setup-stream');
  const log = createLogger({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, component: 'crm events', fd: 2 });
  const nats = await connectCommandNats({ ...config, natsUrl: url }, 'crm events setup-stream', log);
  try {
    await ensureEventStream(await nats.jetStreamManager(), config.busNamespace, config.events);
  } finally {
    await nats.close();
  }
  printLines(`The event stream ${eventStreamName(config.busNamespace)} keeps events for ${config.events.streamMaxAgeMs / 1000} s in ${config.events.streamReplicas} replica(s).`);
}

/**
 * The workspace whose subjects the stream mode reads. An id needs nothing but NATS (a
 * well-formed id with no events yet is waited on, like any quiet workspace); a name only
 * the database knows, so it is looked up there when DATABASE_URL says where that is, and
 * never in an embedded database that is not the deployment's.
 */
async function streamWorkspaceId(ref: string, withDatabase: boolean): Promise<string> {
  if (ref.startsWith('ws_')) {
    // The stream's subjects hold the id as newId made it (case included).
    if (!isMadeId('workspace', ref)) throw new UsageError(`--workspace ${ref} is not a workspace id (ws_ and 26 capital letters and digits, as "crm bootstrap" prints it).`, usage);
    return ref;
  }
  if (!withDatabase) throw new UsageError(`--workspace takes the workspace id (ws_…) when the events come from NATS: "${ref}" could only be looked up in the database (DATABASE_URL).`, usage);
  return withLocalServices(async (services) => (await services.inWorkspace(ref)).workspace.id, 'crm events');
}

/** How far back each poll looks again: an event committed late with an earlier time is still seen (once). */
const OVERLAP_MS = 5_000;
/** How often a poll that failed for a passing reason (the database restarting) is tried again. */
const RETRY_MS = 2_000;

/** A failure a later poll may not meet: the database or a worker away for a while. Anything else ends the tail. */
const isPassing = (error: unknown): error is CrmError => error instanceof CrmError && (error.code === 'internal' || error.code === 'unavailable');

/**
 * Without NATS: every event newer than the last poll, every second, each printed once, oldest
 * first. A poll follows the pages to the end: a burst (a bulk import) is more than one page,
 * and the newest page alone would skip what came before it. A poll that fails for a passing
 * reason is tried again from where the last one ended, as following the stream rides out a
 * NATS restart: said once on stderr, nothing skipped or printed twice.
 */
async function byPolling(services: LocalServices, context: CallContext, type: string | undefined, since: Date, print: (e: Event) => void, signal: AbortSignal): Promise<void> {
  // What was printed and could still come back (newer than `after`): the polls overlap.
  const printed = new Map<string, number>();
  let after = since.getTime() - 1;
  let failing = false;
  while (!signal.aborted) {
    const fresh: Event[] = [];
    let cursor: string | undefined;
    try {
      do {
        const filters = { limit: 100, type, created_after: new Date(after).toISOString(), cursor };
        const { result } = await services.bus.call(listEvents, filters, { context, requestId: services.requestId });
        fresh.push(...result.data);
        cursor = result.next_cursor ?? undefined;
      } while (cursor !== undefined && !signal.aborted);
    } catch (error) {
      if (!isPassing(error)) throw error;
      if (!failing) process.stderr.write(`crm: reading the events failed (${error.message}); trying again every ${RETRY_MS / 1000} s.\n`);
      failing = true;
      await sleep(RETRY_MS, undefined, { signal }).catch(() => undefined);
      continue;
    }
    if (failing) process.stderr.write('crm: reading the events again.\n');
    failing = false;
    for (const event of fresh.reverse()) {
      if (printed.has(event.id)) continue;
      const at = Date.parse(event.created_at);
      printed.set(event.id, at);
      print(event);
      after = Math.max(after, at - OVERLAP_MS);
    }
    // created_after is strict: nothing at or before `after` is listed again.
    for (const [id, at] of printed) if (at <= after) printed.delete(id);
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}
