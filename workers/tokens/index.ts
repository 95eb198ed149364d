import { addUser, bootstrapWorkspace, resolveWorkspace } from '../../shared/contracts/identity.js';
import { authenticateToken, createToken, describeToken, listTokens, revokeToken } from '../../shared/contracts/tokens.js';
import { handle, type WorkerDefinition } from '../runtime/worker-call.js';
import { addUserHandler } from './add-user.js';
import { authenticateTokenHandler } from './authenticate-token.js';
import { bootstrapWorkspaceHandler } from './bootstrap-workspace.js';
import { createTokenHandler } from './create-token.js';
import { describeTokenHandler } from './describe-token.js';
import { listTokensHandler } from './list-tokens.js';
import { resolveWorkspaceHandler } from './resolve-workspace.js';
import { revokeTokenHandler } from './revoke-token.js';

/** Identity: API tokens, users, memberships, workspaces (and, later, OAuth). */
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
  ],
};
