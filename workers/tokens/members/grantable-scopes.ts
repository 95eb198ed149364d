import { grantableScopes } from '../../../shared/auth/permissions.js';
import { grantsScope, type Scope } from '../../../shared/auth/scopes.js';
import type { CallContext } from '../../../shared/contracts/call-context.js';
import { Membership } from '../../../shared/db/entities/index.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { ForbiddenError } from '../../../shared/errors.js';

/** The membership of a user principal in the call's workspace; a user without one may do nothing there. */
export async function membershipOf(em: EntityManager, context: CallContext): Promise<Membership | null> {
  if (context.principal.type !== 'user') return null;
  const member = await em.findOne(Membership, { userId: context.principal.id });
  if (!member) throw new ForbiddenError('You are not a member of this workspace.');
  return member;
}

/**
 * Whether a user principal holds the Configuration permission here. Tokens and the
 * operator count as administrators: their scopes are what limits them.
 */
export async function isAdministrator(em: EntityManager, context: CallContext): Promise<boolean> {
  const member = await membershipOf(em, context);
  return member === null || member.permissions.includes('configuration');
}

/** Only administrators (the configuration permission) manage credentials and members. */
export async function requireAdministrator(em: EntityManager, context: CallContext): Promise<void> {
  if (!(await isAdministrator(em, context))) {
    throw new ForbiddenError('This needs the Configuration permission in the workspace.');
  }
}

/**
 * Whether the caller may hand out `scope`: a token only scopes it holds itself, a user
 * only what their membership allows and the credential they act with holds (an agent's
 * grant is narrower than its user), the operator's command line anything.
 */
export async function scopesCallerMayGrant(em: EntityManager, context: CallContext): Promise<(scope: Scope) => boolean> {
  const { principal } = context;
  if (principal.type === 'operator') return () => true;
  if (principal.type === 'token') return (scope) => grantsScope(principal.scopes, scope);
  const member = await membershipOf(em, context);
  const allowed = grantableScopes(member?.permissions ?? []);
  return (scope) => allowed.includes(scope) && grantsScope(principal.scopes, scope);
}
