import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import t from 'tap';
import { AccessTokenVerifier } from '../../gateway/oauth/access-token-verifier.js';
import { BusClient } from '../../shared/bus/bus-client.js';
import { InProcessTransport } from '../../shared/bus/in-process-transport.js';
import { subjectOf } from '../../shared/bus/operation.js';
import { encodeErrorReply, encodeReply } from '../../shared/bus/reply.js';
import { grantStatus, jwks } from '../../shared/contracts/oauth.js';

/**
 * The verifier fetches the signing keys over the bus. When that fetch fails (no tokens
 * worker, a timeout, the worker's database gone), the token may well be good: the answer
 * is `unavailable` (503), never `unauthenticated` (401), which makes clients drop it.
 */
const ISSUER = 'https://crm.example';
const AUDIENCE = `${ISSUER}/mcp/crm`;
const { privateKey, publicKey } = await generateKeyPair('ES256');
const publicJwk = { ...(await exportJWK(publicKey)), kid: 'key_1', alg: 'ES256', use: 'sig' };

const token = (signWith = privateKey) =>
  new SignJWT({ scope: 'contacts:read', client_id: 'client_1', ws: 'ws_1', gnt: 'grant_1', vis: 'all' })
    .setProtectedHeader({ alg: 'ES256', kid: 'key_1', typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setSubject('user_1')
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(signWith);

/** A verifier whose tokens worker answers the key set with `keySet` (or is absent), and every grant as active. */
function verifierWith(keySet: 'keys' | 'unavailable' | 'absent'): AccessTokenVerifier {
  const transport = new InProcessTransport();
  if (keySet !== 'absent') {
    transport.subscribe(subjectOf('crm', jwks), 'tokens', async () =>
      keySet === 'keys' ? encodeReply(jwks, { keys: [publicJwk] }) : encodeErrorReply({ code: 'unavailable', message: 'The database is not answering.', retry_after: 1 }),
    );
  }
  transport.subscribe(subjectOf('crm', grantStatus), 'tokens', async () => encodeReply(grantStatus, { active: true, scopes: ['contacts:read'], visibility: 'all' }));
  return new AccessTokenVerifier(new BusClient(transport, 'crm', 300), () => ISSUER, 1000);
}

t.test('with the keys at hand, a good token verifies and a forged one is 401', async (t) => {
  const verifier = verifierWith('keys');
  t.match(await verifier.verify(await token(), AUDIENCE), { userId: 'user_1', grantId: 'grant_1', scopes: ['contacts:read'] });
  const forged = await token((await generateKeyPair('ES256')).privateKey);
  await t.rejects(verifier.verify(forged, AUDIENCE), { code: 'unauthenticated', message: 'The access token is not valid.' });
});

t.test('a key set the tokens worker cannot give is unavailable, not a bad token', async (t) => {
  await t.rejects(verifierWith('unavailable').verify(await token(), AUDIENCE), { code: 'unavailable' }, 'the worker answered unavailable');
  await t.rejects(verifierWith('absent').verify(await token(), AUDIENCE), { code: 'unavailable' }, 'no tokens worker answered');
});
