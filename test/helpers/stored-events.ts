import type { DatabaseAccess } from './database.js';

/** An `events` row as the service stored it (shared/db/migrations/0006-events.ts). */
export interface StoredEvent {
  id: string;
  type: string;
  object_type: string;
  object_id: string;
  owner_id: string | null;
  request_id: string | null;
  actor: Record<string, unknown>;
  data: Record<string, unknown>;
  previous_attributes: Record<string, unknown> | null;
  created_at: Date;
}

/**
 * Every event stored for one workspace, in the order they were made, read from Postgres
 * itself: what a test counts or compares, where no token's or member's view filters any out.
 */
export function storedEvents(db: DatabaseAccess, workspaceId: string): Promise<StoredEvent[]> {
  return db.query<StoredEvent>(
    'select id, type, object_type, object_id, owner_id, request_id, actor, data, previous_attributes, created_at from events where workspace_id = $1 order by created_at, id',
    [workspaceId],
  );
}
