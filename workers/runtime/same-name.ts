import { sql, type RawBuilder } from 'kysely';

/**
 * The white space JavaScript's \s matches (and trim() strips), as a Postgres character class:
 * names are single-spaced by the contracts (singleSpaced), so a name stored before that is
 * folded the same way here.
 */
const SPACES = '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+';

/** A name as names are compared: trimmed, single-spaced, and case folded by Postgres' lower(). */
function nameKey(name: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`lower(btrim(regexp_replace(${name}, ${SPACES}, ' ', 'g')))`;
}

/**
 * `column` holds `name`, as the unique pipeline and stage names are compared: case and spacing
 * ignored, both sides folded by Postgres (JavaScript folds İ otherwise). A name stored before
 * writes were single-spaced ("Closed  Won") is that name too.
 */
export function sameName(column: string, name: string): RawBuilder<boolean> {
  return sql<boolean>`${nameKey(sql.ref(column))} = ${nameKey(sql`${name}::text`)}`;
}
