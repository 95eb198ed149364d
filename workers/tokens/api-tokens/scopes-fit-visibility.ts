import { tokenScopeFitsVisibility } from '../../../shared/auth/owned-visibility-scopes.js';
import type { Scope } from '../../../shared/auth/scopes.js';
import type { CallContext } from '../../../shared/contracts/call-context.js';
import { ForbiddenError } from '../../../shared/errors.js';

/** A member who sees only their own records cannot create a token that reads contacts or deals (see {@link tokenScopeFitsVisibility}). */
export function requireScopesFitVisibility(context: CallContext, scopes: readonly Scope[]): void {
  const widening = scopes.filter((scope) => !tokenScopeFitsVisibility(context.visibility, scope));
  if (widening.length === 0) return;
  throw new ForbiddenError(
    `A member who sees only their own records cannot create a token with ${widening.join(', ')}: an API token reads every record of the workspace.`,
  );
}
