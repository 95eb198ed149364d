import { DeliverPolicy } from 'nats';
import { loadConfig } from '../../shared/config.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { EventFilters, listEvents, type Event } from '../../shared/contracts/events.js';
import { eventStreamName } from '../../shared/events/event-stream.js';
import { optional, parseCommandArgs, parseDuration, required } from '../args.js';
import type { LocalServices } from '../local-services.js';
import { UsageError } from '../usage-error.js';
import { withLocalServices } from '../with-local-services.js';

export const usage = `Usage: crm events tail --workspace WORKSPACE [--type TYPE] [--since 1h]

Follows the workspace's change history until interrupted: one JSON line per event, as
GET /v1/events/{id} returns it. TYPE is an event type (deal.stage_changed) or a prefix
ending in a dot (contact.); --since starts that far back (default: from now).
With NATS_URL the events come from the JetStream stream <BUS_NAMESPACE>-events; without,
from the history in the database, polled every second.`;

const POLL_MS = 1_000;

export async function run(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  if (sub === 'tail') return tail(rest);
  throw new UsageError(sub ? `Unknown events command: ${sub}.` : 'Missing the events command.', usage);
}

async function tail(argv: string[]): Promise<void> {
  const args = parseCommandArgs(argv, { workspace: { type: 'string' }, type: { type: 'string' }, since: { type: 'string' } }, usage);
  const workspaceRef = required(args, 'workspace', usage);
  const type = optional(args, 'type');
  const checked = EventFilters.shape.type.safeParse(type);
  if (!checked.success) throw new UsageError(`--type ${checked.error.issues[0]?.message ?? 'is not an event type'}.`, usage);
  const sinceText = optional(args, 'since');
  const since = sinceText === undefined ? new Date() : new Date(Date.now() - parseDuration(sinceText, usage));

  await withLocalServices(async (services) => {
    const { context } = await services.inWorkspace(workspaceRef);
    const stop = new AbortController();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
    const print = (event: Event) => process.stdout.write(`${JSON.stringify(event)}\n`);
    if (services.jetStream) await fromStream(services, context.workspace_id, type, since, print, stop.signal);
    else await byPolling(services, context, type, since, print, stop.signal);
  }, 'crm events');
}

/** An ordered consumer of the stream, filtered by subject to the workspace (and type); nothing is stored on the server. */
async function fromStream(services: LocalServices, workspaceId: string, type: string | undefined, since: Date, print: (e: Event) => void, signal: AbortSignal): Promise<void> {
  const namespace = loadConfig().busNamespace;
  const typeSubject = type === undefined ? '>' : type.endsWith('.') ? `${type.slice(0, -1)}.>` : type;
  const js = services.jetStream?.jetStream();
  if (!js) return;
  const consumer = await js.consumers.get(eventStreamName(namespace), {
    // One subject as a string: the array form takes another consumer-creation path that this client version mishandles with a start time.
    filterSubjects: `${namespace}.events.${workspaceId}.${typeSubject}`,
    deliver_policy: DeliverPolicy.StartTime,
    opt_start_time: since.toISOString(),
  });
  const messages = await consumer.consume();
  signal.addEventListener('abort', () => void messages.close());
  for await (const message of messages) print(message.json<Event>());
}

/** How far back each poll looks again: an event committed late with an earlier time is still seen (once). */
const OVERLAP_MS = 5_000;

/**
 * Without NATS: every event newer than the last poll, every second, each printed once, oldest
 * first. A poll follows the pages to the end: a burst (a bulk import) is more than one page,
 * and the newest page alone would skip what came before it.
 */
async function byPolling(services: LocalServices, context: CallContext, type: string | undefined, since: Date, print: (e: Event) => void, signal: AbortSignal): Promise<void> {
  // What was printed and could still come back (newer than `after`): the polls overlap.
  const printed = new Map<string, number>();
  let after = since.getTime() - 1;
  while (!signal.aborted) {
    const fresh: Event[] = [];
    let cursor: string | undefined;
    do {
      const filters = { limit: 100, type, created_after: new Date(after).toISOString(), cursor };
      const { result } = await services.bus.call(listEvents, filters, { context, requestId: services.requestId });
      fresh.push(...result.data);
      cursor = result.next_cursor ?? undefined;
    } while (cursor !== undefined && !signal.aborted);
    for (const event of fresh.reverse()) {
      if (printed.has(event.id)) continue;
      const at = Date.parse(event.created_at);
      printed.set(event.id, at);
      print(event);
      after = Math.max(after, at - OVERLAP_MS);
    }
    // created_after is strict: nothing at or before `after` is listed again.
    for (const [id, at] of printed) if (at <= after) printed.delete(id);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
