import { sql, type RawBuilder } from 'kysely';

/** `text` as a LIKE pattern matches it: its own % _ and backslash escaped, to match literally. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching strings that start with `text` (its own % and _ match literally). */
export function likePrefix(text: string): string {
  return `${likeLiteral(text)}%`;
}

/**
 * The LIKE pattern, built in SQL, of text starting with `text` folded by lower(crm_unaccent()).
 * Escaped after the folding, not before: crm_unaccent() turns ％ ＿ ＼ into % _ \, which would
 * otherwise act as wildcards and escapes.
 */
export function foldedLikePrefix(text: string): RawBuilder<string> {
  return sql<string>`(replace(replace(replace(lower(crm_unaccent(${text})), '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')`;
}
