import { z } from 'zod';
import { grantsScope, type Scope } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';
import type { IdKind } from '../ids.js';
import { Cursor, PageLimit, pageOf, Timestamp } from './common.js';
import { AppliedRange, CreatedWithin, DayOrInstant } from './created-range.js';
import { NOTE_READ_SCOPES } from './note-parents.js';

/**
 * The change history: one event for every successful write, stored in the write's own
 * transaction (an outbox), published to JetStream, read over REST and by agents, and
 * delivered to webhook endpoints. The shape follows Stripe's: `data.object` is the record
 * after the change, `data.previous_attributes` the old values of the fields that changed.
 */

/**
 * What an event can be about, and who may read such events: a credential holding the scope
 * (any one, where several). A note's events follow its record: each needs the scope of its
 * own contact or deal (NOTE_PARENTS), and `owned` reads see the record owner's.
 */
export const EVENT_OBJECTS = {
  contact: { scope: 'contacts:read', owned: true, id: 'contact' },
  deal: { scope: 'deals:read', owned: true, id: 'deal' },
  note: { scope: NOTE_READ_SCOPES, owned: true, id: 'note' },
  custom_field: { scope: 'schema:read', owned: false, id: 'customField' },
  pipeline: { scope: 'schema:read', owned: false, id: 'pipeline' },
  stage: { scope: 'schema:read', owned: false, id: 'stage' },
  token: { scope: 'tokens:write', owned: false, id: 'token' },
  // A member is named by their user's id, a connected agent by its grant's.
  member: { scope: 'tokens:write', owned: false, id: 'user' },
  agent: { scope: 'tokens:write', owned: false, id: 'grant' },
  webhook_endpoint: { scope: 'webhooks:write', owned: false, id: 'webhookEndpoint' },
  workspace: { scope: 'schema:read', owned: false, id: 'workspace' },
} as const satisfies Record<string, { scope: Scope | readonly Scope[]; owned: boolean; id: IdKind }>;
export type EventObjectType = keyof typeof EVENT_OBJECTS;

/** The scopes that read events of this kind: one, or for a note one per kind of record it belongs to. */
export function readScopesOf(kind: EventObjectType): readonly Scope[] {
  const scope: Scope | readonly Scope[] = EVENT_OBJECTS[kind].scope;
  return typeof scope === 'string' ? [scope] : scope;
}

/** Whether these scopes read some events of this kind (for a note: those of at least one kind of record). */
export function readsEventsOf(held: readonly Scope[], kind: EventObjectType): boolean {
  return readScopesOf(kind).some((s) => grantsScope(held, s));
}

/** The first scope these lack to read every event of this kind (a note's: of both kinds of record); null when they read all. */
export function missingScopeForEveryEventOf(held: readonly Scope[], kind: EventObjectType): Scope | null {
  return readScopesOf(kind).find((s) => !grantsScope(held, s)) ?? null;
}

/** Every event type, `<object>.<what happened>`. */
export const EVENT_TYPES = [
  'contact.created',
  'contact.updated',
  'contact.archived',
  'deal.created',
  'deal.updated',
  'deal.stage_changed',
  'deal.deleted',
  'note.created',
  'note.updated',
  'note.deleted',
  'custom_field.created',
  'custom_field.updated',
  'custom_field.archived',
  'pipeline.created',
  'pipeline.updated',
  'stage.created',
  'stage.updated',
  'stage.archived',
  'token.created',
  'token.revoked',
  'member.added',
  'member.updated',
  'member.removed',
  'agent.connected',
  'agent.revoked',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.disabled',
  'workspace.updated',
] as const satisfies readonly `${EventObjectType}.${string}`[];
export const EventType = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventType>;

export function objectTypeOf(type: EventType): EventObjectType {
  return type.slice(0, type.indexOf('.')) as EventObjectType;
}

export const ACTOR_KINDS = ['api_token', 'oauth_agent', 'console_user', 'cli', 'import', 'system'] as const;
export const ActorKind = z.enum(ACTOR_KINDS);
export type ActorKind = z.infer<typeof ActorKind>;

/** Who made the change: the token, the connected agent (and the user it acts for), the console user, the command line. */
export const Actor = z
  .object({
    kind: ActorKind.describe('api_token, oauth_agent (a connected AI agent), console_user, cli, import (crm import), or system (the service itself)'),
    id: z.string().nullable().describe('tok_…, the grant (gnt_…) of an agent, usr_… of a console user; null for the command line and the service'),
    name: z.string().describe("The token's name, the agent's client name, the user's e-mail, or the command line"),
    user: z.object({ id: z.string(), email: z.string() }).nullable().describe('For an agent: the user it acts for'),
  })
  .meta({ id: 'EventActor' });
export type Actor = z.infer<typeof Actor>;

export const Event = z
  .object({
    object: z.literal('event'),
    id: z.string().describe('evt_ followed by an opaque identifier; the events of one write are ordered as they were recorded'),
    type: EventType,
    workspace_id: z.string(),
    created_at: Timestamp,
    request_id: z.string().nullable().describe('The request that made the change (the Request-Id response header of a REST call)'),
    actor: Actor,
    data: z.object({
      object: z.record(z.string(), z.unknown()).describe('The record after the change (before it, for a deletion)'),
      previous_attributes: z
        .record(z.string(), z.unknown())
        .nullable()
        .describe('For updates: the old values of the fields that changed (custom_fields: only the keys that changed)'),
    }),
    data_omitted: z
      .literal(true)
      .optional()
      .describe(
        'For an event too large for one NATS message (only events stored before custom field values were limited, or a server with a small max_payload): data.object holds just the id and kind of the record, in the stream, webhooks and the feed alike',
      ),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

const EventTypeFilter = z
  .string()
  .trim()
  .max(64)
  .refine((s) => (EVENT_TYPES as readonly string[]).includes(s) || (s.endsWith('.') && EVENT_TYPES.some((t) => t.startsWith(s))), {
    message: `must be an event type (e.g. deal.stage_changed) or a prefix ending in a dot (e.g. contact.)`,
  });

export const EventFilters = z.object({
  type: EventTypeFilter.optional().describe('An event type, or a prefix ending in a dot: contact. matches every contact event'),
  object_id: z.string().trim().min(1).max(64).optional().describe('Only events about this record (con_…, deal_…, …)'),
  actor_kind: ActorKind.optional().describe('Only changes made by this kind of actor'),
  actor_id: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(64)
    .optional()
    .describe("Only changes made by this actor (its actor.id): a token (tok_…), a connected agent's grant (gnt_…) or a console user (usr_…)"),
  created_after: DayOrInstant.optional().describe(
    'Only events strictly after this instant, or from the start of this day (YYYY-MM-DD) in the workspace time zone',
  ),
  created_before: DayOrInstant.optional().describe('Only events strictly before this instant, or before the start of this day (YYYY-MM-DD) in the workspace time zone'),
  created_within: CreatedWithin.optional().describe(
    'Only events in this period of the workspace time zone: today, yesterday, last_7_days, this_week, last_week (weeks start on Monday), this_month or last_month. Not with created_after or created_before',
  ),
});
export type EventFilters = z.infer<typeof EventFilters>;

/** Newest first: a feed is read from the latest change backwards. */
export const listEvents = defineOperation({
  worker: 'webhooks',
  resource: 'events',
  verb: 'list',
  readOnly: true,
  scope: 'events:read',
  input: z.strictObject({ limit: PageLimit, cursor: Cursor.optional(), ...EventFilters.shape }),
  output: pageOf(Event).extend({
    applied_range: AppliedRange.optional().describe('When a day or created_within was given: the instants it meant, in the workspace time zone'),
  }),
});

export const getEvent = defineOperation({
  worker: 'webhooks',
  resource: 'events',
  verb: 'get',
  readOnly: true,
  scope: 'events:read',
  input: z.strictObject({ id: z.string().max(64) }),
  output: Event,
});
