import { sql } from 'kysely';
import { serverScopesFor } from '../../../shared/auth/mcp-servers.js';
import { isMetadataClientId } from '../../../shared/auth/metadata-client-id.js';
import type { Permission } from '../../../shared/auth/permissions.js';
import type { viewConsent } from '../../../shared/contracts/oauth.js';
import type { EntityManager } from '../../../shared/db/orm.js';
import { crossWorkspaceSql } from '../../../shared/db/cross-workspace-sql.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { sessionUser } from '../sessions/session-user.js';
import { pendingRequest } from './pending-request.js';
import { narrowedToRequest } from './requested-scopes.js';
import { REVOKED_FOR_THEFT } from './theft-revocations.js';

/**
 * "Allow changes" is offered only when the user already granted this server in this
 * workspace to this client: the first connection is read-only, writes need a deliberate
 * second one. Removing and re-adding a server registers the client again, so "this client"
 * is the same client id, or a registration with the same name and the same redirect URIs
 * (what the consent page shows the user); a grant to any other client does not count. A
 * client named by its metadata document URL keeps that id for good, so for it (and against
 * it) only the same id counts: anyone can publish a document with a familiar name.
 * Revoked grants count (removing a server revokes its grant), except those revoked because
 * their code or refresh token was stolen: the thief must not earn "Allow changes" with them.
 */
export async function workspacesWithPriorGrant(em: EntityManager, userId: string, server: string, clientId: string): Promise<Set<string>> {
  const rows = await crossWorkspaceSql(em, "a user's grants in every workspace decide what consent offers")
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_clients as granted', 'granted.id', 'g.client_id')
    .innerJoin('oauth_clients as asking', (join) => join.on('asking.id', '=', clientId))
    .select('g.workspace_id')
    .distinct()
    .where('g.user_id', '=', userId)
    .where('g.server', '=', server as 'crm')
    .where((eb) => eb.or([eb('g.revoked_reason', 'is', null), eb('g.revoked_reason', 'not in', Object.values(REVOKED_FOR_THEFT))]))
    .where((eb) =>
      eb.or([
        eb('g.client_id', '=', clientId),
        eb.and([
          sql<boolean>`granted.id !~* '^https?://' and asking.id !~* '^https?://'`,
          sql<boolean>`granted.client_name is not distinct from asking.client_name`,
          sql<boolean>`granted.redirect_uris @> asking.redirect_uris and granted.redirect_uris <@ asking.redirect_uris`,
        ]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.workspace_id));
}

export const viewConsentHandler: UnscopedHandler<typeof viewConsent> = async ({ input, em, services }) => {
  const { user, password_change_required } = await sessionUser(em, services.secrets.opaqueHashKey, input.session_token);
  const request = await pendingRequest(em, input.request_id);
  const memberships = await crossWorkspaceSql(em, 'consent lists every workspace the user may connect')
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .innerJoin('organizations as o', 'o.id', 'w.organization_id')
    .select(['w.id', 'w.name', 'o.name as organization', 'm.permissions'])
    .where('m.user_id', '=', user.id)
    .orderBy('o.name')
    .orderBy('w.name')
    .execute();
  const prior = await workspacesWithPriorGrant(em, user.id, request.server, request.client_id);
  return {
    request: { id: request.id, server: request.server },
    client: {
      id: request.client_id,
      name: request.client_name,
      redirect_host: new URL(request.redirect_uri).host,
      metadata_host: isMetadataClientId(request.client_id) ? new URL(request.client_id).host : null,
    },
    user,
    password_change_required,
    workspaces: memberships.map((m) => {
      const scopes = narrowedToRequest(request.server, serverScopesFor(request.server, m.permissions as Permission[]), request.requested_scopes);
      return { id: m.id, name: m.name, organization: m.organization, read_scopes: scopes.read, write_scopes: prior.has(m.id) ? scopes.write : [] };
    }),
  };
};
