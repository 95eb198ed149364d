import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { defineOperation } from '../bus/operation.js';

/** The `whoami` tool of both servers. */
export const WhoAmI = z.object({
  workspace: z.object({ id: z.string(), name: z.string() }),
  organization: z.object({ id: z.string(), name: z.string() }),
  authorized_by: z.discriminatedUnion('type', [
    z.object({ type: z.literal('user'), id: z.string(), email: z.string() }),
    z.object({ type: z.literal('token'), id: z.string(), name: z.string() }),
  ]),
  scopes: z.array(Scope),
  credential_kind: z.enum(['api_token', 'oauth']),
  reads_company_wide: z.boolean().describe('False when the connection sees only what its user owns'),
  time_zone: z.string().describe('The workspace time zone (IANA): days (YYYY-MM-DD) and ranges such as last_week are read in it'),
  grantable_scopes: z
    .array(Scope)
    .describe("What this connection could be allowed: for a sign-in, what the user's workspace permissions let them grant; for an API token, its own scopes"),
});
export type WhoAmI = z.infer<typeof WhoAmI>;

export const whoAmI = defineOperation({ worker: 'tokens', resource: 'credentials', verb: 'whoami', readOnly: true, input: z.object({}), output: WhoAmI });
