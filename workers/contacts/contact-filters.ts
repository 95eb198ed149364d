import { sql, type RawBuilder } from 'kysely';
import type { ContactFilters } from '../../shared/contracts/contacts.js';
import type { AppliedRange } from '../../shared/contracts/created-range.js';
import type { ScopedSelect } from '../../shared/db/workspace-sql.js';
import { foldedLikePrefix, likePrefix } from '../runtime/like-prefix.js';
import { normalizePhone } from './normalize-phone.js';

/** Filters as they are applied: e-mail lower-cased, phone in E.164, the creation range as instants. */
export interface AppliedContactFilters {
  created_after?: string;
  created_before?: string;
  status?: 'active' | 'archived';
  email?: string;
  phone?: string;
  q?: string;
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
    email: filters.email?.toLowerCase(),
    phone: filters.phone === undefined ? undefined : normalizePhone(filters.phone, defaultCountry),
    // Words separated by any white space, so the cursor of "ada  love" continues "ada love".
    q: filters.q?.split(/\s+/u).filter(Boolean).join(' '),
  };
}

/** A query of phone characters only, with at least two digits: also matched against the phone. */
const PHONE_QUERY = /^[\d\s()+./-]+$/;

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
 * of phone characters, the phone starts with its digits. Raw SQL on `search_text` and `phone`,
 * so it applies to `contacts` and to a derived table of its rows alike.
 */
export function matchesWords(q: string): RawBuilder<boolean> {
  const everyWord = sql<boolean>`(${sql.join(q.split(' ').map(beginsAWord), sql` and `)})`;
  const digits = q.replace(/\D/g, '');
  if (!PHONE_QUERY.test(q) || digits.length < 2) return everyWord;
  return sql<boolean>`(${everyWord} or phone like ${likePrefix(`+${digits}`)})`;
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
  if (f.email) q = q.where('email', '=', f.email);
  if (f.phone) q = q.where('phone', '=', f.phone);
  return q;
}
