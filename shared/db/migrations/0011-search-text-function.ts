import { Migration } from '@mikro-orm/migrations';

/** The body of crm_contact_search_text, unchanged: the same words, so no row needs recomputing. */
const SEARCH_TEXT = `' ' || t || ' ' || regexp_replace(t, '[[:punct:]]+', ' ', 'g') || ' '`;
const WORDS = `lower(crm_unaccent(concat_ws(' ', first_name, last_name, email)))`;

/**
 * `search_text` computed by a PL/pgSQL function instead of a SQL one. A generated column
 * calls its function outside the planner, so a SQL function with a subquery was parsed and
 * planned again for every statement that wrote a contact (about 45 µs of Postgres CPU per
 * single-row insert, measured); PL/pgSQL compiles once per connection and keeps its plan.
 */
export class Migration0011SearchTextFunction extends Migration {
  override name = '0011-search-text-function';

  override async up(): Promise<void> {
    this.addSql(`
      create or replace function crm_contact_search_text(first_name text, last_name text, email text) returns text
        language plpgsql immutable parallel safe
        as $$
        declare
          t text := ${WORDS};
        begin
          return ${SEARCH_TEXT};
        end
        $$;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create or replace function crm_contact_search_text(first_name text, last_name text, email text) returns text
        language sql immutable parallel safe
        as $$
          select ${SEARCH_TEXT}
          from (select ${WORDS} as t) as words
        $$;
    `);
  }
}
