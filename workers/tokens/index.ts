import { addUser, bootstrapWorkspace, resolveWorkspace } from '../../shared/contracts/identity.js';
import { authenticateToken, createToken, describeToken, getToken, listTokens, nameTokenCreators, revokeToken } from '../../shared/contracts/tokens.js';
import {
  codeChallenge,
  decideAuthorization,
  exchangeCode,
  getOAuthClient,
  grantStatus,
  jwks,
  recordMetadataClient,
  refreshTokens,
  registerOAuthClient,
  revokeOAuthToken,
  rotateSigningKey,
  startAuthorization,
  viewConsent,
} from '../../shared/contracts/oauth.js';
import { getGrant, listGrants, revokeGrantById } from '../../shared/contracts/grants.js';
import { getMember, inviteMember, listMembers, nameMembers, removeMember, updateMember } from '../../shared/contracts/members.js';
import { changePassword, resolveSession, sessionMemberships, signIn, signOut } from '../../shared/contracts/sessions.js';
import { whoAmI } from '../../shared/contracts/whoami.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { purgeExpiredIdentityRecords } from './credentials/purge-expired.js';
import { inviteMemberHandler } from './members/invite-member.js';
import { getMemberHandler, listMembersHandler } from './members/list-members.js';
import { nameMembersHandler } from './members/name-members.js';
import { removeMemberHandler, updateMemberHandler } from './members/update-member.js';
import { getGrantHandler, listGrantsHandler, revokeGrantByIdHandler } from './oauth/connected-agents.js';
import { getTokenHandler } from './api-tokens/get-token.js';
import { changePasswordHandler } from './sessions/change-password.js';
import { sessionMembershipsHandler } from './sessions/session-memberships.js';
import { codeChallengeHandler } from './oauth/code-challenge.js';
import { decideAuthorizationHandler } from './oauth/decide-authorization.js';
import { exchangeCodeHandler } from './oauth/exchange-code.js';
import { getClientHandler } from './oauth/get-client.js';
import { grantStatusHandler } from './oauth/grant-status.js';
import { jwksHandler, rotateSigningKeyHandler } from './oauth/keys.js';
import { recordMetadataClientHandler } from './oauth/record-metadata-client.js';
import { refreshTokensHandler } from './oauth/refresh-tokens.js';
import { registerClientHandler } from './oauth/register-client.js';
import { revokeOAuthTokenHandler } from './oauth/revoke-token.js';
import { startAuthorizationHandler } from './oauth/start-authorization.js';
import { viewConsentHandler } from './oauth/view-consent.js';
import { resolveSessionHandler, signOutHandler } from './sessions/resolve-session.js';
import { signInHandler } from './sessions/sign-in.js';
import { whoAmIHandler } from './credentials/whoami.js';
import { addUserHandler } from './members/add-user.js';
import { authenticateTokenHandler } from './api-tokens/authenticate-token.js';
import { bootstrapWorkspaceHandler } from './workspaces/bootstrap-workspace.js';
import { createTokenHandler } from './api-tokens/create-token.js';
import { describeTokenHandler } from './api-tokens/describe-token.js';
import { listTokensHandler } from './api-tokens/list-tokens.js';
import { nameTokenCreatorsHandler } from './api-tokens/name-token-creators.js';
import { resolveWorkspaceHandler } from './workspaces/resolve-workspace.js';
import { revokeTokenHandler } from './api-tokens/revoke-token.js';

/** Identity: API tokens, users, memberships, workspaces, browser sessions, and the OAuth authorization server's state. */
export const tokensWorker: WorkerDefinition = {
  name: 'tokens',
  handlers: [
    handle(authenticateToken, authenticateTokenHandler),
    handle(describeToken, describeTokenHandler),
    handle(createToken, createTokenHandler),
    handle(listTokens, listTokensHandler),
    handle(revokeToken, revokeTokenHandler),
    handle(bootstrapWorkspace, bootstrapWorkspaceHandler),
    handle(resolveWorkspace, resolveWorkspaceHandler),
    handle(addUser, addUserHandler),
    handle(whoAmI, whoAmIHandler),
    handle(signIn, signInHandler),
    handle(resolveSession, resolveSessionHandler),
    handle(signOut, signOutHandler),
    handle(registerOAuthClient, registerClientHandler),
    handle(getOAuthClient, getClientHandler),
    handle(recordMetadataClient, recordMetadataClientHandler),
    handle(startAuthorization, startAuthorizationHandler),
    handle(viewConsent, viewConsentHandler),
    handle(decideAuthorization, decideAuthorizationHandler),
    handle(codeChallenge, codeChallengeHandler),
    handle(exchangeCode, exchangeCodeHandler),
    handle(refreshTokens, refreshTokensHandler),
    handle(revokeOAuthToken, revokeOAuthTokenHandler),
    handle(grantStatus, grantStatusHandler),
    handle(jwks, jwksHandler),
    handle(rotateSigningKey, rotateSigningKeyHandler),
    handle(sessionMemberships, sessionMembershipsHandler),
    handle(listMembers, listMembersHandler),
    handle(getMember, getMemberHandler),
    handle(nameMembers, nameMembersHandler),
    handle(inviteMember, inviteMemberHandler),
    handle(updateMember, updateMemberHandler),
    handle(removeMember, removeMemberHandler),
    handle(listGrants, listGrantsHandler),
    handle(getGrant, getGrantHandler),
    handle(getToken, getTokenHandler),
    handle(nameTokenCreators, nameTokenCreatorsHandler),
    handle(changePassword, changePasswordHandler),
    handle(revokeGrantById, revokeGrantByIdHandler),
  ],
  maintenance: {
    everyMs: 10 * 60_000,
    run: async ({ orm }, log) => {
      const removed = await purgeExpiredIdentityRecords(orm.em.fork());
      if (removed > 0) log.info({ removed }, 'purged expired sessions, codes and sign-in attempts');
    },
  },
};
