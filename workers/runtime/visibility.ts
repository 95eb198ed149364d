import type { CallContext } from '../../shared/contracts/call-context.js';

/**
 * A member whose visibility is `owned` sees only the rows they own: every read, count
 * and filter of contacts and deals is restricted to this owner id. Null: no restriction.
 */
export function ownerRestriction(context: CallContext): string | null {
  if (context.visibility !== 'owned') return null;
  // Only users have an owned view; anything else sees nothing rather than everything
  // ('-' is never an id).
  return context.principal.type === 'user' ? context.principal.id : '-';
}
