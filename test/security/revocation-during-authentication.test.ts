import t from 'tap';
import { grantStatus } from '../../shared/contracts/oauth.js';
import { authenticateToken } from '../../shared/contracts/tokens.js';
import { busAs } from '../helpers/bus-as.js';
import { whileHeld } from '../helpers/held-lock.js';
import { authorizeWithForms, pkce, registerClient } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * A revocation that commits while the tokens worker notes a credential's use. The worker read
 * the row before the revocation committed, then waited on its lock to update last_used_at;
 * before, it answered "active" after the revocation had been broadcast, and the gateway cached
 * that stale answer for its whole TTL. Now the update says what the row holds once it gets it.
 */
const EMAIL = 'revocation-race@example.test';
const REDIRECT = 'http://127.0.0.1:9/revocation-race-cb';
const stack = await useStack(t);
const gateway = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });
const base = stack.baseUrl;
const ws = await stack.bootstrap({ email: EMAIL });

t.test('an API token revoked while its use is noted: refused', async (t) => {
  const token = await stack.token(ws.workspace.id, ['contacts:read'], { name: 'revoked during authentication' });
  const revoke = { sql: `update api_tokens set revoked_at = now() where workspace_id = $1 and name = 'revoked during authentication'`, params: [ws.workspace.id] };
  const { result, waited } = await whileHeld(stack.db.url, [revoke], () =>
    gateway.call(authenticateToken, { token }, { context: null, requestId: 'req_revocation_race_token' }).then(
      () => 'authenticated',
      (error: { code?: string }) => error.code,
    ),
  );
  t.ok(waited, 'the authentication waited for the revocation');
  t.equal(result, 'unauthenticated', 'and then refused the token');
});

t.test('an OAuth grant revoked while its use is noted: inactive', async (t) => {
  const clientId = await registerClient(base, REDIRECT, 'Revocation race agent');
  await authorizeWithForms({ baseUrl: base, clientId, redirectUri: REDIRECT, server: 'crm', email: EMAIL, password: TEST_PASSWORD, challenge: pkce().challenge });
  const [grant] = await stack.db.query<{ id: string }>('select id from oauth_grants where client_id = $1', [clientId]);
  const grantId = grant?.id ?? '';
  const revoke = { sql: `update oauth_grants set revoked_at = now() where id = $1`, params: [grantId] };
  const { result, waited } = await whileHeld(stack.db.url, [revoke], async () => (await gateway.call(grantStatus, { grant_id: grantId }, { context: null, requestId: 'req_revocation_race_grant' })).result);
  t.ok(waited, 'the status waited for the revocation');
  t.same(result, { active: false }, 'and then said the grant is revoked');
});
