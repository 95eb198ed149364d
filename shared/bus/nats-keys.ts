import { createUser } from 'nkeys.js';
import { NATS_ROLES, type NatsRole } from './nats-permissions.js';

/** A NATS user identity: the seed the process holds, the public key the server holds. */
export interface NatsKeyPair {
  seed: string;
  publicKey: string;
}

export function newNatsKeyPair(): NatsKeyPair {
  const pair = createUser();
  return { seed: new TextDecoder().decode(pair.getSeed()), publicKey: pair.getPublicKey() };
}

/** A fresh key pair for every role of the service. */
export function newRoleKeyPairs(): Record<NatsRole, NatsKeyPair> {
  return Object.fromEntries(NATS_ROLES.map((role) => [role, newNatsKeyPair()])) as Record<NatsRole, NatsKeyPair>;
}
