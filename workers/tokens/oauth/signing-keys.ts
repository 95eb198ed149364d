import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { EntityManager } from '../../../shared/db/orm.js';
import { jsonb, sqlOf } from '../../../shared/db/sql.js';
import { newId } from '../../../shared/ids.js';
import { openSealedText as decrypt, sealText as encrypt } from '../../../shared/sealed-text.js';

export const SIGNING_ALGORITHM = 'ES256';
/** A retired key stays published this long: far beyond the life of any token it signed. */
const RETIRED_KEY_PUBLISHED_HOURS = 24;

export interface ActiveSigningKey {
  kid: string;
  privateKey: CryptoKey | Uint8Array;
}

async function createKey(em: EntityManager, encryptionKey: Buffer): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const kid = newId('request').replace(/^req_/, 'key_');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALGORITHM, use: 'sig' };
  await sqlOf(em)
    .insertInto('oauth_signing_keys')
    .values({
      kid,
      algorithm: SIGNING_ALGORITHM,
      public_jwk: jsonb<Record<string, unknown>>(publicJwk),
      private_key_encrypted: encrypt(encryptionKey, JSON.stringify(await exportJWK(privateKey))),
      created_at: new Date(),
      retired_at: null,
    })
    .execute();
  return kid;
}

/** The decrypted key last used; reused while it is still the active one. */
let cached: ActiveSigningKey | undefined;

/**
 * The newest unretired key, created on first use. Which key is active is read on every
 * issuance (tokens are issued rarely), so a rotation applies at once on every worker;
 * only the decryption is cached.
 */
export async function activeSigningKey(em: EntityManager, encryptionKey: Buffer): Promise<ActiveSigningKey> {
  const load = () =>
    sqlOf(em).selectFrom('oauth_signing_keys').select(['kid', 'private_key_encrypted']).where('retired_at', 'is', null).orderBy('created_at', 'desc').limit(1).executeTakeFirst();
  let row = await load();
  if (!row) {
    // Two workers starting at once may both create one; either is fine, the newest wins.
    await createKey(em, encryptionKey);
    row = await load();
  }
  if (!row) throw new Error('no signing key');
  if (cached?.kid === row.kid) return cached;
  const privateKey = await importJWK(JSON.parse(decrypt(encryptionKey, row.private_key_encrypted)) as JWK, SIGNING_ALGORITHM);
  cached = { kid: row.kid, privateKey };
  return cached;
}

/** Public keys to verify with: the active ones and those retired recently. */
export async function publishedKeys(em: EntityManager): Promise<Record<string, unknown>[]> {
  const rows = await sqlOf(em)
    .selectFrom('oauth_signing_keys')
    .select('public_jwk')
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', new Date(Date.now() - RETIRED_KEY_PUBLISHED_HOURS * 3_600_000).toISOString())]))
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((r) => r.public_jwk);
}

/**
 * Starts signing with a new key. The previous keys stay published for a day, so tokens
 * they signed keep working until they expire.
 */
export async function rotateSigningKey(em: EntityManager, encryptionKey: Buffer): Promise<{ kid: string; retired: string[] }> {
  return em.transactional(async (tx) => {
    const retired = await sqlOf(tx).updateTable('oauth_signing_keys').set({ retired_at: new Date() }).where('retired_at', 'is', null).returning('kid').execute();
    const kid = await createKey(tx, encryptionKey);
    return { kid, retired: retired.map((r) => r.kid) };
  });
}
