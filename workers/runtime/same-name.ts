import { sql, type RawBuilder } from 'kysely';

/**
 * The white space JavaScript's \s matches (and trim() strips), as a Postgres character class:
 * names are single-spaced by the contracts (singleSpaced), so a name stored before that is
 * folded the same way here.
 */
export const SPACES = '[\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]+';

/**
 * The characters that show as nothing, as a Postgres character class: Unicode's
 * Default_Ignorable_Code_Point but U+FEFF (white space above), the list withoutShownAsNothing in
 * shared/contracts/common.ts drops (test/unit/name-key-sql.test.ts holds the two alike).
 */
export const SHOWN_AS_NOTHING =
  '[\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0f\\uffa0\\ufff0-\\ufff8\\U0001bca0-\\U0001bca3\\U0001d173-\\U0001d17a\\U000e0000-\\U000e0fff]+';

/**
 * A name as names are compared: without characters that show as nothing, trimmed,
 * single-spaced, and case folded by Postgres' lower(); the unique indexes on pipeline and stage
 * names hold this expression (migration 0021).
 */
export function nameKey(name: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`lower(btrim(regexp_replace(regexp_replace(${name}, ${SHOWN_AS_NOTHING}, '', 'g'), ${SPACES}, ' ', 'g')))`;
}

/**
 * `column` holds `name`, as the unique pipeline and stage names are compared: case, spacing and
 * characters that show as nothing ignored, both sides folded by Postgres (JavaScript folds İ
 * otherwise). A name stored before writes were single-spaced ("Closed  Won"), or with a hidden
 * character ("Closed\u200bWon"), is that name too.
 */
export function sameName(column: string, name: string): RawBuilder<boolean> {
  return sql<boolean>`${nameKey(sql.ref(column))} = ${nameKey(sql`${name}::text`)}`;
}
