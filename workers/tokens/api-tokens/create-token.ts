import { actorId } from '../../../shared/contracts/call-context.js';
import type { createToken } from '../../../shared/contracts/tokens.js';
import { ForbiddenError, MissingScopeError, ValidationError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { OperationHandler } from '../../runtime/worker-call.js';
import { requireAdministrator, scopesCallerMayGrant } from '../members/grantable-scopes.js';
import { childTokenLineage } from './child-token-expiry.js';
import { toTokenResource } from './token-resource.js';
import { displayHint, generateApiToken, hashApiToken } from './token-secret.js';

/** Creates an API token. The plaintext is in this reply and nowhere else, ever. */
export const createTokenHandler: OperationHandler<typeof createToken> = async ({ input, context, em, db, events, services }) => {
  await requireAdministrator(em, context);
  const mayGrant = await scopesCallerMayGrant(em, context);
  const refused = input.scopes.filter((s) => !mayGrant(s));
  if (refused.length > 0) {
    // A token lacks those scopes, as any operation's 403 says (missing_scope, one scope named
    // exactly); a person's membership bounds what they may grant, which is no scope to add.
    if (context.principal.type === 'token') {
      const first = refused[0]!;
      const others = refused.length > 1 ? ` (nor ${refused.slice(1).join(', ')})` : '';
      throw new MissingScopeError(first, `A token grants only scopes it holds itself, and this one does not hold ${first}${others}.`);
    }
    throw new ForbiddenError(`You cannot grant scopes you do not hold yourself: ${refused.join(', ')}.`);
  }
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new ValidationError('expires_at: must be in the future.', 'expires_at');
  const lineage = await childTokenLineage(db, context, expiresAt);

  const plaintext = generateApiToken();
  const row = await db
    .insertInto('api_tokens')
    .values({
      id: newId('token'),
      workspace_id: db.workspaceId,
      name: input.name,
      token_hash: hashApiToken(services.secrets.tokenHashKey, plaintext),
      display_hint: displayHint(plaintext),
      scopes: [...new Set(input.scopes)],
      created_by: actorId(context.principal),
      parent_id: lineage.parentId,
      created_at: new Date(),
      last_used_at: null,
      expires_at: lineage.expiresAt,
      revoked_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const created = toTokenResource(row);
  // The event carries the resource only: the plaintext never leaves this reply.
  await events.record({ type: 'token.created', object: created });
  return { ...created, token: plaintext };
};
