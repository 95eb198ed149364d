import type { CallContext } from '../../../shared/contracts/call-context.js';
import { EVENT_OBJECTS, objectTypeOf, type Actor, type EventType } from '../../../shared/contracts/events.js';
import { jsonb } from '../../../shared/db/sql.js';
import type { WorkspaceSql } from '../../../shared/db/workspace-sql.js';
import { newId } from '../../../shared/ids.js';
import { actorOf, SYSTEM_ACTOR } from './event-actor.js';
import { previousAttributes } from './previous-attributes.js';

/** A record as events carry it: its REST representation. */
export type EventRecord = Readonly<Record<string, unknown>> & { id: string; owner_id?: string | null };

/** One change to store: the record after it (before it, for a deletion) and, for an update, before it. */
export interface Change<R extends EventRecord = EventRecord> {
  type: EventType;
  object: R;
  previous?: R;
}

export interface RecorderOptions {
  /** `import` for `crm import`; any other command-line write is `cli`. */
  cliKind?: 'cli' | 'import';
  /** For `system`: what in the service made the change. */
  systemName?: string;
  /** EVENTS_RECORDING=off: only to measure what events cost (npm run bench). */
  off?: boolean;
}

/**
 * Stores the events of one write, on the write's own transaction: they commit or roll back
 * with the data, and the relay publishes them after the commit. Handlers get one as
 * `call.events`.
 */
export class EventRecorder {
  constructor(
    private readonly db: WorkspaceSql,
    /** The call that made the change; `system` for one the service makes on its own. */
    private readonly context: CallContext | 'system',
    private readonly requestId: string,
    private readonly options: RecorderOptions = {},
  ) {}

  /** A recorder for a change nobody asked for: the actor is the service (`system`), named by what did it. */
  static bySystem(db: WorkspaceSql, name: string, requestId = 'unknown'): EventRecorder {
    return new EventRecorder(db, 'system', requestId, { systemName: name });
  }

  /** The same recorder for `crm import`: its events name the import as their actor. */
  asImport(): EventRecorder {
    return new EventRecorder(this.db, this.context, this.requestId, { ...this.options, cliKind: 'import' });
  }

  /** The same recorder on another transaction (a savepoint inside the handler). */
  within(db: WorkspaceSql): EventRecorder {
    return new EventRecorder(db, this.context, this.requestId, this.options);
  }

  async record(...changes: Change[]): Promise<void> {
    if (changes.length === 0 || this.options.off === true) return;
    const actor: Actor =
      this.context === 'system' ? { ...SYSTEM_ACTOR, name: this.options.systemName ?? SYSTEM_ACTOR.name } : await actorOf(this.db, this.context, this.options.cliKind ?? 'cli');
    const now = new Date();
    const rows = changes
      .map((change) => ({ change, previous: change.previous ? previousAttributes(change.previous, change.object) : null }))
      // An update that changed nothing is not a change.
      .filter(({ change, previous }) => !change.previous || previous !== null)
      .map(({ change, previous }) => {
        const objectType = objectTypeOf(change.type);
        return {
          id: newId('event', now.getTime()),
          workspace_id: this.db.workspaceId,
          type: change.type,
          object_type: objectType,
          object_id: change.object.id,
          owner_id: EVENT_OBJECTS[objectType].owned ? (change.object.owner_id ?? null) : null,
          data: jsonb<Record<string, unknown>>({ ...change.object }),
          previous_attributes: previous === null ? null : jsonb(previous),
          request_id: this.requestId === 'unknown' ? null : this.requestId,
          actor: jsonb(actor),
          created_at: now,
          published_at: null,
        };
      });
    if (rows.length === 0) return;
    await this.db.insertInto('events').values(rows).execute();
  }
}
