/**
 * Setting up workspaces, members and tokens for a test: the operations `crm bootstrap`,
 * `crm users add` and `crm tokens create` run, through the same contracts, sent over the
 * stack's NATS to its tokens worker as the command line sends operator calls (its `cli`
 * identity, signed with the key from CRM_SECRET). The test process loads neither the ORM
 * nor the workers. test/cli/cli.test.ts tests the commands themselves.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { BusClient } from '../../shared/bus/bus-client.js';
import { operatorContext, type CallContext } from '../../shared/contracts/call-context.js';
import type { Permission, Visibility } from '../../shared/auth/permissions.js';
import { addUser, bootstrapWorkspace, resolveWorkspace, type BootstrapResult as BootstrapResultSchema } from '../../shared/contracts/identity.js';
import { createToken } from '../../shared/contracts/tokens.js';
import type { Scope } from '../../shared/auth/scopes.js';
import { deriveSecrets } from '../../shared/secrets.js';
import { connectBus } from './bus-as.js';

export const TEST_PASSWORD = 'a long enough test password';

export interface BootstrapOptions {
  org?: string;
  workspace?: string;
  email?: string;
  defaultCountry?: string;
}

/** What `crm bootstrap --json` prints: the contract's own type. */
export type BootstrapResult = z.infer<typeof BootstrapResultSchema>;

export interface Operator {
  /** An organization (new or existing), a workspace and its administrator, like `crm bootstrap`. */
  bootstrap(options?: BootstrapOptions): Promise<BootstrapResult>;
  /** A member of the workspace (a new user, with TEST_PASSWORD), like `crm users add`; returns the user id. */
  addMember(workspaceId: string, email: string, permissions: Permission[], visibility: Visibility): Promise<string>;
  /** A new API token, like `crm tokens create`; returns the plaintext. */
  token(workspaceId: string, scopes: string[], options?: { name?: string; expiresAt?: string }): Promise<string>;
  close(): Promise<void>;
}

/** Password hashing queues in the tokens worker (two at a time), so setup gets a generous deadline. */
const SETUP_TIMEOUT_MS = 30_000;

export function operatorFor(env: NodeJS.ProcessEnv): Operator {
  let opened: Promise<BusClient> | undefined;
  const requestId = `req_test_operator_${randomBytes(4).toString('hex')}`;
  const bus = () => (opened ??= connectBus(env, 'cli', { timeoutMs: SETUP_TIMEOUT_MS, operatorCallKey: deriveSecrets(env.CRM_SECRET ?? '').operatorCallKey }));
  /** The operator's context in a workspace, as `crm` commands resolve `--workspace`. */
  const inWorkspace = async (ref: string): Promise<CallContext> => {
    const { result } = await (await bus()).call(resolveWorkspace, { ref }, { context: null, requestId });
    return operatorContext(result.id);
  };
  return {
    bootstrap: async (o = {}) => {
      const suffix = randomBytes(3).toString('hex');
      const input = {
        organization: o.org ?? `Org ${suffix}`,
        workspace: o.workspace ?? `Workspace ${suffix}`,
        email: o.email ?? `admin-${suffix}@example.test`,
        password: TEST_PASSWORD,
        default_country: o.defaultCountry ?? null,
      };
      return (await (await bus()).call(bootstrapWorkspace, input, { context: null, requestId })).result;
    },
    addMember: async (workspaceId, email, permissions, visibility) => {
      const input = { email, password: TEST_PASSWORD, permissions, visibility };
      return (await (await bus()).call(addUser, input, { context: await inWorkspace(workspaceId), requestId })).result.user_id;
    },
    token: async (workspaceId, scopes, options = {}) => {
      const input = { name: options.name ?? 'crm command line', scopes: scopes as Scope[], expires_at: options.expiresAt ?? null };
      return (await (await bus()).call(createToken, input, { context: await inWorkspace(workspaceId), requestId })).result.token;
    },
    close: async () => {
      if (opened) await (await opened).transport.close();
    },
  };
}
