import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements one connection prepares; past it, statements run unnamed (parsed each time). */
const MAX_PREPARED_PER_CONNECTION = 200;
/** Names by statement text, for the process (the texts come from code, so they are few). */
const MAX_NAMES = 2_000;
const names = new Map<string, string>();

type Query = (...args: unknown[]) => unknown;

/**
 * A statement whose text holds this runs unnamed, planned for its values every time. For
 * statements whose best plan depends on the values: after five runs Postgres may settle on
 * one generic plan for every value, and for a word search that is the plan that reads the
 * whole workspace in order to find a rare word (see workers/contacts/contact-filters.ts).
 */
export const PLANNED_PER_VALUE = '/* planned per value */';

/**
 * A pg client that runs the service's statements as prepared (named) statements, so that
 * Postgres parses and plans a statement once per connection instead of on every request.
 * Kysely builds every statement from code with parameters, so there are few distinct
 * texts; a statement is named by a hash of its text. (A session-level pooler in front of
 * Postgres is fine; a transaction-level one, e.g. PgBouncer in transaction mode before
 * 1.21, is not.)
 *
 * A migration that changes a table under a prepared `select *` makes Postgres refuse the
 * old plan ("cached plan must not change result type"): that statement then runs unnamed
 * on this connection from then on, instead of failing (inside a transaction it fails once).
 */
export class PreparedStatementClient extends pg.Client {
  private readonly prepared = new Set<string>();
  private readonly unpreparable = new Set<string>();

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const plain = this.query.bind(this) as Query;
    const self = this as unknown as { query: Query };
    self.query = (text: unknown, values?: unknown, ...rest: unknown[]) => {
      // Statements with parameters only: those without are DDL, transaction control or
      // several statements in one text, which the simple protocol runs and a prepared one cannot.
      const name = typeof text === 'string' && Array.isArray(values) && values.length > 0 && rest.length === 0 ? this.nameFor(text) : undefined;
      if (!name) return plain(text, values, ...rest);
      const named = plain({ name, text, values }) as Promise<pg.QueryResult>;
      return named.catch((error: unknown) => {
        if (!isStalePlan(error)) throw error;
        this.unpreparable.add(text as string);
        // In a transaction the failure aborted it, and a second try there would only fail
        // with "current transaction is aborted": the caller gets this error (a 503 from a
        // worker), and its retry runs the statement unnamed.
        if (this.getTransactionStatus() !== 'I') throw error;
        return plain(text, values);
      });
    };
  }

  private nameFor(text: string): string | undefined {
    if (this.unpreparable.has(text) || text.includes(PLANNED_PER_VALUE)) return undefined;
    const name = nameOf(text);
    if (this.prepared.has(name)) return name;
    if (this.prepared.size >= MAX_PREPARED_PER_CONNECTION) return undefined;
    this.prepared.add(name);
    return name;
  }
}

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `crm_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;
    if (names.size < MAX_NAMES) names.set(text, name);
  }
  return name;
}

/** SQLSTATE 0A000 with Postgres's message for a prepared plan whose result type changed (the error, or what it wraps). */
export function isStalePlan(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 3) return false;
  if ((error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(error.message)) return true;
  return isStalePlan(error.cause, depth + 1);
}
