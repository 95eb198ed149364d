import type { InferKyselyDB } from '@mikro-orm/postgresql';
import { sql, type ColumnType, type Kysely, type RawBuilder } from 'kysely';
import type {
  ApiTokenSchema,
  ContactSchema,
  CustomFieldSchema,
  DealSchema,
  IdempotencyKeySchema,
  MembershipSchema,
  OAuthAuthorizationRequestSchema,
  OAuthClientSchema,
  OAuthCodeSchema,
  OAuthGrantSchema,
  OAuthRefreshTokenSchema,
  OAuthSigningKeySchema,
  SignInAttemptSchema,
  UserSessionSchema,
  OrganizationSchema,
  PipelineSchema,
  StageSchema,
  UserSchema,
  WorkspaceSchema,
  EventSchema,
  WebhookEndpointSchema,
  WebhookDeliverySchema,
  WebhookDeliveryAttemptSchema,
  NoteSchema,
} from './entities/index.js';
import type { EntityManager } from './orm.js';

type EntityTables = InferKyselyDB<
  | typeof OrganizationSchema
  | typeof WorkspaceSchema
  | typeof UserSchema
  | typeof MembershipSchema
  | typeof ApiTokenSchema
  | typeof ContactSchema
  | typeof CustomFieldSchema
  | typeof PipelineSchema
  | typeof StageSchema
  | typeof DealSchema
  | typeof IdempotencyKeySchema
  | typeof OAuthClientSchema
  | typeof UserSessionSchema
  | typeof OAuthAuthorizationRequestSchema
  | typeof OAuthGrantSchema
  | typeof OAuthCodeSchema
  | typeof OAuthRefreshTokenSchema
  | typeof OAuthSigningKeySchema
  | typeof SignInAttemptSchema
  | typeof EventSchema
  | typeof WebhookEndpointSchema
  | typeof WebhookDeliverySchema
  | typeof WebhookDeliveryAttemptSchema
  | typeof NoteSchema
>;

/**
 * MikroORM's driver setup leaves timestamps as Postgres text ("2026-01-31 10:00:00.123+00");
 * the types say so, and {@link pgTimestamp} turns them into dates. Writes accept dates.
 */
type WireColumn<T> = [T] extends [Date]
  ? ColumnType<string, Date | string, Date | string>
  : [T] extends [Date | null]
    ? ColumnType<string | null, Date | string | null, Date | string | null>
    : T;

/**
 * The database as typed SQL, derived from the entity definitions (snake_case columns).
 * Hot paths use it instead of entity hydration, which costs several times more per
 * row; it joins the entity manager's transaction when there is one.
 */
type WireTables = { [Table in keyof EntityTables]: { [Column in keyof EntityTables[Table]]: WireColumn<EntityTables[Table][Column]> } };

/** pg returns int8 as text (exactness beyond 2^53); amounts stay below that and are read with Number(). */
type Int8Text = ColumnType<string | null, number | null, number | null>;

/** Every table. Row types come from here; queries go through {@link sqlOf} or ./workspace-sql.ts. */
export type CrmDatabase = Omit<WireTables, 'deals'> & { deals: Omit<WireTables['deals'], 'amount'> & { amount: Int8Text } };

/** Tables whose rows belong to one workspace: those with a workspace_id column. */
export type WorkspaceTable = { [T in keyof CrmDatabase]: 'workspace_id' extends keyof CrmDatabase[T] ? T : never }[keyof CrmDatabase];

/** Tables shared by every workspace: users, organizations, workspaces, sessions, OAuth clients and keys… */
export type GlobalTable = Exclude<keyof CrmDatabase, WorkspaceTable>;

export type GlobalDatabase = Pick<CrmDatabase, GlobalTable>;

export type Sql = Kysely<GlobalDatabase>;

/**
 * Typed SQL bound to `em` (and to its transaction), over the global tables only: a
 * workspace-owned table is reached through `workspaceSql` (./workspace-sql.ts), which
 * adds the workspace to every query, so an unscoped one does not compile.
 */
export function sqlOf(em: EntityManager): Sql {
  return em.getKysely<GlobalDatabase>();
}

/** What a Postgres error carries, as pg and the ORM expose it. */
interface PostgresErrorFields {
  code?: unknown;
  sqlState?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/**
 * The first of `error` and its causes (the ORM and transactions wrap what pg threw) with
 * one of these SQLSTATEs and, when asked, a constraint name; null if none.
 */
export function postgresErrorOf(error: unknown, states: ReadonlySet<string>, withConstraint = false): { sqlState: string; constraint?: string } | null {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === 'object' && depth < 6; depth++) {
    const { code, sqlState, constraint, cause } = e as PostgresErrorFields;
    const state = typeof sqlState === 'string' ? sqlState : typeof code === 'string' ? code : undefined;
    const named = typeof constraint === 'string';
    if (state !== undefined && states.has(state) && (named || !withConstraint)) return { sqlState: state, ...(named ? { constraint } : {}) };
    if (cause === e) break;
    e = cause;
  }
  return null;
}

const UNIQUE_VIOLATION: ReadonlySet<string> = new Set(['23505']);
const CHECK_VIOLATION: ReadonlySet<string> = new Set(['23514']);
const FOREIGN_KEY_VIOLATION: ReadonlySet<string> = new Set(['23503']);

/** Postgres unique violations surface with the constraint's name. */
export function uniqueViolation(error: unknown): string | null {
  return postgresErrorOf(error, UNIQUE_VIOLATION, true)?.constraint ?? null;
}

/** Postgres foreign key violations surface with the constraint's name. */
export function foreignKeyViolation(error: unknown): string | null {
  return postgresErrorOf(error, FOREIGN_KEY_VIOLATION, true)?.constraint ?? null;
}

/** Postgres check violations surface with the constraint's name. */
export function checkViolation(error: unknown): string | null {
  return postgresErrorOf(error, CHECK_VIOLATION, true)?.constraint ?? null;
}

/** A jsonb parameter. Passed explicitly: pg would turn a JS array into a Postgres array literal. */
export function jsonb<T>(value: T): RawBuilder<T> {
  return sql<T>`${JSON.stringify(value)}::jsonb`;
}

const PG_TIMESTAMP = /^(\d{4,}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d(?:\.\d+)?)(Z|[+-]\d\d(?::?\d\d)?)?$/;

/** A timestamptz as Postgres prints it, as a Date. */
export function pgTimestamp(text: string): Date {
  const m = PG_TIMESTAMP.exec(text);
  if (!m) throw new Error(`Unexpected timestamp from Postgres: ${text}`);
  let zone = m[3] ?? 'Z';
  if (/^[+-]\d\d$/.test(zone)) zone += ':00';
  else if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return new Date(`${m[1]}T${m[2]}${zone}`);
}

/**
 * The API's timestamp format (ISO 8601 UTC with milliseconds) from Postgres text.
 * Sessions run in UTC (see orm.ts), so the common case is a reshuffle of characters.
 */
export function isoTimestamp(text: string): string {
  // "YYYY-MM-DD HH:MM:SS[.fraction]+00"; Postgres omits the fraction when it is zero.
  if (text[10] === ' ' && text.endsWith('+00')) {
    if (text.length === 22) return `${text.slice(0, 10)}T${text.slice(11, 19)}.000Z`;
    if (text[19] === '.' && text.length <= 29) return `${text.slice(0, 10)}T${text.slice(11, 19)}.${`${text.slice(20, -3)}00`.slice(0, 3)}Z`;
  }
  return pgTimestamp(text).toISOString();
}

export function isoTimestampOrNull(text: string | null): string | null {
  return text === null ? null : isoTimestamp(text);
}
