import type { CallContext } from '../../../shared/contracts/call-context.js';
import { EVENT_OBJECTS, objectTypeOf, type Actor, type EventType } from '../../../shared/contracts/events.js';
import { sql, type Compilable, type OperationNodeSource } from 'kysely';
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
  /** Whose `owned` view shows the event, for a record that has no owner of its own (a note: its contact's or deal's). */
  owner?: string | null;
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
    const batch = await this.batchOf(changes);
    if (!batch) return;
    const { rows } = batch;
    // One statement of fixed text for any number of events (a bulk import stores a batch's
    // worth): the varying columns as arrays, what the events share once. Then their ids in
    // the relay's outbox.
    await sql`
      with stored as (
        insert into events (id, workspace_id, type, object_type, object_id, owner_id, data, previous_attributes, request_id, actor, created_at)
        select e.id, ${batch.workspaceId}, e.type, e.object_type, e.object_id, e.owner_id, e.data, e.previous_attributes, ${batch.requestId}, ${batch.actor}::jsonb, ${batch.createdAt}
        from unnest(
          ${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.objectType)}::text[],
          ${rows.map((r) => r.objectId)}::text[], ${rows.map((r) => r.ownerId)}::text[],
          ${rows.map((r) => r.data)}::jsonb[], ${rows.map((r) => r.previousAttributes)}::jsonb[]
        ) as e(id, type, object_type, object_id, owner_id, data, previous_attributes)
        returning id, created_at
      )
      insert into event_outbox (event_id, created_at) select id, created_at from stored`.execute(this.db.global);
  }

  /**
   * Stores a new record, its event and the event's outbox entry in ONE statement (`with
   * written as (<insert>), stored as (insert into events … from written) …`), atomic without a transaction: the hot path of a
   * create, two round trips fewer than a transaction. `write` must return the new row's
   * `id`; when it writes nothing (ON CONFLICT DO NOTHING), no event is stored either.
   * Returns the id written, if any.
   */
  async recordWithInsert(change: Change, write: Compilable & OperationNodeSource): Promise<string | null> {
    const batch = await this.batchOf([change]);
    const row = batch?.rows[0];
    if (!batch || !row) {
      const done = await sql<{ id: string }>`${write}`.execute(this.db.global);
      return done.rows[0]?.id ?? null;
    }
    const stored = await sql<{ object_id: string }>`
      with written as (${write}),
      stored as (
        insert into events (id, workspace_id, type, object_type, object_id, owner_id, data, previous_attributes, request_id, actor, created_at)
        select ${row.id}, ${batch.workspaceId}, ${row.type}, ${row.objectType}, written.id, ${row.ownerId}, ${row.data}::jsonb, null, ${batch.requestId}, ${batch.actor}::jsonb, ${batch.createdAt}
        from written
        returning id, object_id, created_at
      ),
      queued as (insert into event_outbox (event_id, created_at) select id, created_at from stored)
      select object_id from stored`.execute(this.db.global);
    return stored.rows[0]?.object_id ?? null;
  }

  /** The events of these changes, JSON as text (none when recording is off, or nothing changed). */
  private async batchOf(changes: Change[]): Promise<EventBatch | null> {
    if (changes.length === 0 || this.options.off === true) return null;
    const now = new Date();
    const kept = changes
      .map((change) => ({ change, previous: change.previous ? previousAttributes(change.previous, change.object) : null }))
      // An update that changed nothing is not a change.
      .filter(({ change, previous }) => !change.previous || previous !== null);
    const rows = kept.map(({ change, previous }): EventRow => {
      const objectType = objectTypeOf(change.type);
      return {
        // The events of one write share an instant: ids made in recording order (they increase
        // within a millisecond, shared/ids.ts) keep that order in the feed, also across writes.
        id: newId('event', now.getTime()),
        type: change.type,
        objectType,
        objectId: change.object.id,
        ownerId: EVENT_OBJECTS[objectType].owned ? (change.owner !== undefined ? change.owner : (change.object.owner_id ?? null)) : null,
        data: JSON.stringify(change.object),
        previousAttributes: previous === null ? null : JSON.stringify(previous),
      };
    });
    if (rows.length === 0) return null;
    const actor: Actor =
      this.context === 'system' ? { ...SYSTEM_ACTOR, name: this.options.systemName ?? SYSTEM_ACTOR.name } : await actorOf(this.db, this.context, this.options.cliKind ?? 'cli');
    return {
      workspaceId: this.db.workspaceId,
      requestId: this.requestId === 'unknown' ? null : this.requestId,
      actor: JSON.stringify(actor),
      createdAt: now,
      rows,
    };
  }
}

/** What one event stores of its own. */
interface EventRow {
  id: string;
  type: EventType;
  objectType: string;
  objectId: string;
  ownerId: string | null;
  /** JSON text. */
  data: string;
  previousAttributes: string | null;
}

/** The events of one write: what they share, once. */
interface EventBatch {
  workspaceId: string;
  requestId: string | null;
  /** JSON text. */
  actor: string;
  createdAt: Date;
  rows: EventRow[];
}
