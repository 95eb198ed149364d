import type { Visibility } from './permissions.js';
import { grantsScope, type Scope } from './scopes.js';

/** The reads that an `owned` visibility narrows to the member's own records. */
const OWNED_READS: readonly Scope[] = ['contacts:read', 'deals:read'];

/**
 * Whether a member of this visibility may put `scope` on an API token. A token reads
 * company-wide, so one that reads contacts or deals would show a member who sees only their
 * own records every record (and, with webhooks:write, let them point a webhook at every
 * record, which they may not do themselves).
 */
export function tokenScopeFitsVisibility(visibility: Visibility, scope: Scope): boolean {
  return visibility === 'all' || !OWNED_READS.some((read) => grantsScope([scope], read));
}
