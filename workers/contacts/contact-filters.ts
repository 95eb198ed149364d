import { sql, type RawBuilder } from 'kysely';
import { AsYouType, type CountryCode } from 'libphonenumber-js/max';
import type { ContactFilters } from '../../shared/contracts/contacts.js';
import type { AppliedRange } from '../../shared/contracts/created-range.js';
import type { ScopedSelect } from '../../shared/db/workspace-sql.js';
import { foldedLikePrefix, likePrefix } from '../runtime/like-prefix.js';
import { normalizePhone } from './normalize-phone.js';
import { canonicalEmail, storedEmailForms } from '../../shared/contracts/email-address.js';

/** Filters as they are applied: e-mail lower-cased, phone in E.164, the creation range as instants. */
export interface AppliedContactFilters {
  created_after?: string;
  created_before?: string;
  status?: 'active' | 'archived';
  email?: string;
  phone?: string;
  q?: string;
  /** A search of phone characters written without a country code, read in the default country (`415 555`: `+1415555`). */
  q_national_phone?: string;
}

/**
 * The phone filter is read like a phone on create, in the workspace's default country; the
 * creation range arrives resolved (days and created_within read in the workspace's time zone).
 */
export function applicableContactFilters(filters: ContactFilters, range: AppliedRange, defaultCountry: string | null): AppliedContactFilters {
  return {
    created_after: range.created_after ?? undefined,
    created_before: range.created_before ?? undefined,
    status: filters.status,
    // As stored, so é typed either way, in capitals or not, finds the contact.
    email: filters.email === undefined ? undefined : canonicalEmail(filters.email),
    phone: filters.phone === undefined ? undefined : normalizePhone(filters.phone, defaultCountry),
    q: filters.q === undefined ? undefined : searchWords(filters.q),
    q_national_phone: filters.q === undefined ? undefined : nationalPhonePrefix(filters.q.trim(), defaultCountry),
  };
}

/**
 * The words of a search: separated by any white space, so the cursor of "ada  love" continues
 * "ada love"; commas, semicolons and double quotes around a word dropped, as in "Lovelace, Ada"
 * or "\"Ada Lovelace\"" (they begin or end no word of a name or an e-mail address).
 */
function searchWords(q: string): string {
  const words = q.split(/\s+/u).filter(Boolean);
  const stripped = words.map((word) => word.replace(/^[,;"]+|[,;"]+$/gu, '')).filter(Boolean);
  // A search of those characters alone stays a search (of them), not a list of everyone.
  return (stripped.length > 0 ? stripped : words).join(' ');
}

/** A query of phone characters only, with at least two digits: also matched against the phone. */
const PHONE_QUERY = /^[\d\s()+./-]+$/;

const isPhoneQuery = (q: string) => PHONE_QUERY.test(q) && q.replace(/\D/g, '').length >= 2;

/**
 * Written as a phone number rather than a short run of digits (a year, an order number): with
 * a separator, or six digits or more. "2024" alone would otherwise also match every +1 202-4….
 */
const looksDialled = (q: string) => /[\s()./-]/.test(q) || q.replace(/\D/g, '').length >= 6;

/**
 * What a search of phone characters without a country code means in the workspace's default
 * country, as the start of an E.164 number: people type the numbers of their own country as
 * they dial them ("(415) 555" in the US is +1415555, "020 7946" in the UK +44207946).
 */
function nationalPhonePrefix(q: string, defaultCountry: string | null): string | undefined {
  if (!defaultCountry || !isPhoneQuery(q) || /^(\+|00)/.test(q) || !looksDialled(q)) return undefined;
  const typed = new AsYouType(defaultCountry as CountryCode);
  typed.input(q);
  const prefix = typed.getNumberValue();
  // Digits alone are matched after + already.
  return prefix && prefix !== `+${q.replace(/\D/g, '')}` ? prefix : undefined;
}

/**
 * `search_text` (migration 0009) holds each word of the name and e-mail after a space, lower
 * case and unaccented; `like '% word%'` is "a word begins with this", served by its trigram
 * index. The word is folded by the same crm_unaccent() in SQL, so both sides agree.
 */
function beginsAWord(word: string): RawBuilder<boolean> {
  return sql<boolean>`search_text like '% ' || ${foldedLikePrefix(word)}`;
}

/**
 * The search condition of `q`: every word begins a word of the name or e-mail, or, for a text
 * of phone characters, the phone starts with its digits (or with `nationalPhone`, the same
 * text read in the workspace's country). Raw SQL on `search_text` and `phone`, so it applies
 * to `contacts` and to a derived table of its rows alike.
 */
export function matchesWords(q: string, nationalPhone?: string): RawBuilder<boolean> {
  const everyWord = sql<boolean>`(${sql.join(q.split(' ').map(beginsAWord), sql` and `)})`;
  if (!isPhoneQuery(q)) return everyWord;
  const phones = [`+${q.replace(/\D/g, '')}`, ...(nationalPhone ? [nationalPhone] : [])];
  return sql<boolean>`(${everyWord} or ${sql.join(phones.map((p) => sql<boolean>`phone like ${likePrefix(p)}`), sql` or `)})`;
}

/**
 * Adds the filters but the search to a query on `contacts` (the workspace and owner conditions
 * are the caller's); a list adds the search its own way (./search-page.ts).
 */
export function whereContactFilters<O>(
  query: ScopedSelect<'contacts', O>,
  f: AppliedContactFilters,
): ScopedSelect<'contacts', O> {
  let q = query;
  // Half-open: the start is in the range, the end is not.
  if (f.created_after) q = q.where('created_at', '>=', f.created_after);
  if (f.created_before) q = q.where('created_at', '<', f.created_before);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.email) q = q.where('email', 'in', storedEmailForms(f.email));
  if (f.phone) q = q.where('phone', '=', f.phone);
  return q;
}
