import { serverScopesFor } from '../../../shared/auth/mcp-servers.js';
import type { Permission } from '../../../shared/auth/permissions.js';
import type { decideAuthorization } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { workspaceSql } from '../../../shared/db/workspace-sql.js';
import { ForbiddenError, ValidationError } from '../../../shared/errors.js';
import { newId } from '../../../shared/ids.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret, newOpaqueSecret } from '../credentials/opaque-secret.js';
import { sessionUser } from '../sessions/session-user.js';
import { agentEventObjects } from './agent-event-object.js';
import { userEvents } from './grant-event-recorders.js';
import { pendingRequest } from './pending-request.js';
import { narrowedToRequest } from './requested-scopes.js';
import { workspacesWithPriorGrant } from './view-consent.js';

export const PASSWORD_CHANGE_FIRST = 'Choose your own password in the console before connecting an agent: yours is still the temporary one you were given.';

/** An authorization code is good for this long, and once. */
const CODE_TTL_MS = 120_000;

/**
 * Approve: a grant for the chosen workspace (read-only, plus writes when offered and
 * allowed; only those of the request's `scope` when it names any), and a one-time code for the client. Deny: the client hears access_denied.
 * Either way the request is finished and cannot be decided again.
 */
export const decideAuthorizationHandler: UnscopedHandler<typeof decideAuthorization> = async ({ input, em, services, requestId }) =>
  em.transactional(async (tx) => {
    const { user, password_change_required } = await sessionUser(tx, services.secrets.opaqueHashKey, input.session_token);
    // A temporary password was seen by whoever invited the user: it may not hand an agent access.
    if (password_change_required) throw new ForbiddenError(PASSWORD_CHANGE_FIRST);
    const request = await pendingRequest(tx, input.request_id, true);
    const now = new Date();
    await sqlOf(tx).updateTable('oauth_authorization_requests').set({ completed_at: now }).where('id', '=', request.id).execute();
    const redirect = new URL(request.redirect_uri);
    if (request.state !== null) redirect.searchParams.set('state', request.state);

    if (input.decision === 'deny') {
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('error_description', 'The user denied the request.');
      return { redirect_to: redirect.href };
    }

    // The workspace the signed-in user chose; their membership there is what allows the grant.
    const chosen = workspaceSql(tx, input.workspace_id);
    const member = await chosen
      .selectFrom('memberships')
      .select('permissions')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!member) throw new ForbiddenError('You are not a member of that workspace.');
    const allowed = narrowedToRequest(request.server, serverScopesFor(request.server, member.permissions as Permission[]), request.requested_scopes);
    const offersChanges = (await workspacesWithPriorGrant(tx, user.id, request.server, request.client_id)).has(input.workspace_id);
    const scopes = [...allowed.read, ...(input.allow_changes && offersChanges ? allowed.write : [])];
    if (scopes.length === 0) throw new ValidationError('Your permissions in that workspace allow nothing on this server.', 'workspace_id');

    const grantId = newId('grant');
    await chosen
      .insertInto('oauth_grants')
      .values({
        id: grantId,
        workspace_id: chosen.workspaceId,
        user_id: user.id,
        client_id: request.client_id,
        server: request.server,
        scopes,
        allows_changes: scopes.some((s) => s.endsWith(':write')),
        created_at: now,
        last_used_at: null,
        revoked_at: null,
        revoked_reason: null,
      })
      .execute();
    // Stored with the grant, in its transaction: the user connected the agent, from the consent page.
    const [agent] = await agentEventObjects(chosen, [grantId]);
    if (agent) await userEvents(chosen, user.id, requestId).record({ type: 'agent.connected', object: agent });
    // A client somebody approved is in use: the purge of never-approved registrations keeps it.
    await sqlOf(tx)
      .updateTable('oauth_clients')
      .set((eb) => ({ first_consented_at: eb.fn.coalesce('first_consented_at', eb.val(now)) }))
      .where('id', '=', request.client_id)
      .execute();
    const code = newOpaqueSecret('code');
    await sqlOf(tx)
      .insertInto('oauth_codes')
      .values({
        code_hash: hashOpaqueSecret(services.secrets.opaqueHashKey, code),
        grant_id: grantId,
        client_id: request.client_id,
        redirect_uri: request.redirect_uri,
        code_challenge: request.code_challenge,
        resource: request.resource,
        created_at: now,
        expires_at: new Date(now.getTime() + CODE_TTL_MS),
        used_at: null,
      })
      .execute();
    redirect.searchParams.set('code', code);
    return { redirect_to: redirect.href };
  });
