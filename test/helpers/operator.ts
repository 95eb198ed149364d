/**
 * Setting up workspaces, members and tokens for a test: the operations `crm bootstrap`,
 * `crm users add` and `crm tokens create` run, through the same contracts and the same in-process workers
 * (cli/local-services.ts), but loaded once per test file instead of once per `crm`
 * process. test/service/cli.test.ts tests the commands themselves.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { openLocalServices, type LocalServices } from '../../cli/local-services.js';
import { loadConfig } from '../../shared/config.js';
import type { Permission, Visibility } from '../../shared/auth/permissions.js';
import { addUser, bootstrapWorkspace, type BootstrapResult as BootstrapResultSchema } from '../../shared/contracts/identity.js';
import { createToken } from '../../shared/contracts/tokens.js';
import { createLogger } from '../../shared/logger.js';
import type { Scope } from '../../shared/auth/scopes.js';

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

export function operatorFor(env: NodeJS.ProcessEnv): Operator {
  let opened: Promise<LocalServices> | undefined;
  const services = () =>
    (opened ??= openLocalServices(loadConfig(env), createLogger({ level: 'warn', component: 'test operator', fd: 2 })));
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
      const { bus, requestId } = await services();
      return (await bus.call(bootstrapWorkspace, input, { context: null, requestId })).result;
    },
    addMember: async (workspaceId, email, permissions, visibility) => {
      const { bus, requestId, inWorkspace } = await services();
      const { context } = await inWorkspace(workspaceId);
      const input = { email, password: TEST_PASSWORD, permissions, visibility };
      return (await bus.call(addUser, input, { context, requestId })).result.user_id;
    },
    token: async (workspaceId, scopes, options = {}) => {
      const { bus, requestId, inWorkspace } = await services();
      const { context } = await inWorkspace(workspaceId);
      const input = { name: options.name ?? 'crm command line', scopes: scopes as Scope[], expires_at: options.expiresAt ?? null };
      return (await bus.call(createToken, input, { context, requestId })).result.token;
    },
    close: async () => {
      if (opened) await (await opened).close();
    },
  };
}
