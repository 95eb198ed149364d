import type { ContactFilters } from '../../shared/contracts/contacts.js';
import type { ScopedSelect } from '../../shared/db/workspace-sql.js';
import { likePrefix } from '../runtime/like-prefix.js';
import { normalizePhone } from './normalize-phone.js';

/** Filters as they are applied: e-mail lower-cased, phone in E.164, instants parsed. */
export interface AppliedContactFilters {
  created_after?: string;
  created_before?: string;
  status?: 'active' | 'archived';
  email?: string;
  phone?: string;
  q?: string;
}

/** The phone filter is read like a phone on create, in the workspace's default country. */
export function applicableContactFilters(filters: ContactFilters, defaultCountry: string | null): AppliedContactFilters {
  return {
    created_after: filters.created_after ? new Date(filters.created_after).toISOString() : undefined,
    created_before: filters.created_before ? new Date(filters.created_before).toISOString() : undefined,
    status: filters.status,
    email: filters.email?.toLowerCase(),
    phone: filters.phone === undefined ? undefined : normalizePhone(filters.phone, defaultCountry),
    q: filters.q,
  };
}

/** Adds the filters to a query on `contacts` (the workspace and owner conditions are the caller's). */
export function whereContactFilters<O>(
  query: ScopedSelect<'contacts', O>,
  f: AppliedContactFilters,
): ScopedSelect<'contacts', O> {
  let q = query;
  if (f.created_after) q = q.where('created_at', '>', f.created_after);
  if (f.created_before) q = q.where('created_at', '<', f.created_before);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.email) q = q.where('email', '=', f.email);
  if (f.phone) q = q.where('phone', '=', f.phone);
  if (f.q) {
    const pattern = likePrefix(f.q.toLowerCase());
    const digits = f.q.replace(/\D/g, '');
    q = q.where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['first_name']), 'like', pattern),
        eb(eb.fn('lower', ['last_name']), 'like', pattern),
        eb('email', 'like', pattern),
        ...(digits.length >= 2 ? [eb('phone', 'like', likePrefix(`+${digits}`))] : []),
      ]),
    );
  }
  return q;
}
