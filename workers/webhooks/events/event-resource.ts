import type { Selectable } from 'kysely';
import type { Event } from '../../../shared/contracts/events.js';
import { isoTimestamp, type CrmDatabase } from '../../../shared/db/sql.js';

export type EventRow = Selectable<CrmDatabase['events']>;

/** The API shape of an event, as REST, the tools, the stream and webhooks carry it. */
export function toEventResource(row: EventRow): Event {
  return {
    object: 'event',
    id: row.id,
    type: row.type as Event['type'],
    workspace_id: row.workspace_id,
    created_at: isoTimestamp(row.created_at),
    request_id: row.request_id,
    actor: row.actor,
    data: { object: row.data, previous_attributes: row.previous_attributes },
  };
}
