import { encode } from '../../../shared/bus/codec.js';
import { eventSubjectOf } from '../../../shared/bus/bus-event.js';
import { SIGNING_KEYS_CHANGED_EVENT } from '../../../shared/contracts/broadcasts.js';
import type { jwks, rotateSigningKey } from '../../../shared/contracts/oauth.js';
import type { UnscopedHandler } from '../../runtime/worker-call.js';
import { activeSigningKey, publishedKeys, rotateSigningKey as rotate } from './signing-keys.js';

/**
 * The public keys gateways verify access tokens with (and publish at
 * /.well-known/jwks.json). The first key is made here if none exists yet, so the set a
 * gateway caches is never empty.
 */
export const jwksHandler: UnscopedHandler<typeof jwks> = async ({ em, services }) => {
  let keys = await publishedKeys(em);
  if (keys.length === 0) {
    await activeSigningKey(em, services.secrets.keyEncryptionKey);
    keys = await publishedKeys(em);
  }
  return { keys };
};

/** Gateways drop their cached key set when told, so tokens signed with the new key verify at once. */
export const rotateSigningKeyHandler: UnscopedHandler<typeof rotateSigningKey> = async ({ em, services }) => {
  const result = await rotate(em, services.secrets.keyEncryptionKey);
  services.broadcasts.publish(eventSubjectOf(services.busNamespace, SIGNING_KEYS_CHANGED_EVENT), encode({ kid: result.kid }));
  return result;
};
