import type { codeChallenge } from '../../../shared/contracts/oauth.js';
import { sqlOf } from '../../../shared/db/sql.js';
import { InvalidGrantError } from '../../../shared/errors.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { hashOpaqueSecret } from '../credentials/opaque-secret.js';

/** The PKCE challenge of a code, for the token endpoint to check the verifier against. */
export const codeChallengeHandler: UnscopedHandler<typeof codeChallenge> = async ({ input, em, services }) => {
  const row = await sqlOf(em)
    .selectFrom('oauth_codes')
    .select(['code_challenge', 'client_id'])
    .where('code_hash', '=', hashOpaqueSecret(services.secrets.opaqueHashKey, input.code))
    .executeTakeFirst();
  if (!row || row.client_id !== input.client_id) throw new InvalidGrantError('The authorization code is not valid.');
  return { code_challenge: row.code_challenge };
};
