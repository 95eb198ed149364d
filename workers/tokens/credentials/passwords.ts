import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { Semaphore } from '../../runtime/concurrency.js';

/**
 * Hashes a process computes at once. Each costs about a quarter of a second of CPU: a burst
 * of sign-ins (or guesses) queues here instead of taking every core, so the worker's other
 * calls (token checks, consent) keep answering, and queued sign-ins past their deadline
 * are dropped by the worker rather than hashed for nobody.
 */
const HASHING = new Semaphore(2);

async function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  await HASHING.acquire();
  try {
    return await new Promise((resolve, reject) => scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))));
  } finally {
    HASHING.release();
  }
}

/**
 * OWASP's Password Storage Cheat Sheet lists N=2^17/r=8/p=1 and equivalents of the same
 * cost; N=2^15, r=8, p=3 is one of them at 32 MiB a hash rather than 128 MiB, so the four
 * hashes libuv runs at once fit a worker's memory limit (deploy/: 256 MiB). Raising these
 * upgrades every user at their next sign-in.
 */
export const PASSWORD_HASH_PARAMETERS = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEYLEN = 32;
/** Room for the parameters above; a stored hash asking for more (tampered) fails to verify. */
const MAX_MEMORY = 256 * 1024 * 1024;

/** `scrypt$N$r$p$salt$hash`: the parameters are stored with each hash, so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = PASSWORD_HASH_PARAMETERS;
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEYLEN, { N, r, p, maxmem: MAX_MEMORY });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  try {
    const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p), maxmem: MAX_MEMORY });
    return timingSafeEqual(key, expected);
  } catch {
    return false;
  }
}

/** A hash made with other parameters than today's: replaced at the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  const { N, r, p } = PASSWORD_HASH_PARAMETERS;
  return !stored.startsWith(`scrypt$${N}$${r}$${p}$`);
}
