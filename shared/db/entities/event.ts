import { defineEntity, p } from '@mikro-orm/core';
import type { Actor } from '../../contracts/events.js';
import { Workspace } from './workspace.js';

/**
 * One change, written in the same transaction as the change itself, its id also in
 * `event_outbox` until the relay has published it (workers/webhooks/relay/), so a crash
 * between commit and publish only delays the event.
 */
export const EventSchema = defineEntity({
  name: 'Event',
  tableName: 'events',
  properties: {
    id: p.string().primary(),
    workspaceId: () => p.manyToOne(Workspace).mapToPk().fieldName('workspace_id'),
    type: p.string(),
    objectType: p.string(),
    objectId: p.string(),
    /** The record's owner after the change: `owned` members see events of their own records only. No foreign key: history outlives members. */
    ownerId: p.string().nullable(),
    data: p.json<Record<string, unknown>>(),
    previousAttributes: p.json<Record<string, unknown>>().nullable(),
    requestId: p.string().nullable(),
    actor: p.json<Actor>(),
    createdAt: p.datetime(3),
  },
});

export class Event extends EventSchema.class {}
EventSchema.setClass(Event);
