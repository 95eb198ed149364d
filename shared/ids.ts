import { randomFillSync } from 'node:crypto';
import { z } from 'zod';

/** Every object id carries a prefix that names its type. */
export const ID_PREFIXES = {
  contact: 'con',
  deal: 'deal',
  token: 'tok',
  workspace: 'ws',
  organization: 'org',
  user: 'usr',
  pipeline: 'pipe',
  stage: 'stg',
  customField: 'fld',
  membership: 'mem',
  oauthClient: 'cli',
  grant: 'gnt',
  request: 'req',
  session: 'ses',
  authorizationRequest: 'areq',
  event: 'evt',
  webhookEndpoint: 'we',
  webhookMessage: 'msg',
  note: 'note',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * Random bytes fetched 4 KB at a time and handed out 16 at a time, as Node's randomUUID does:
 * one call into the system's generator per 256 ids instead of one per id (a request makes
 * several). Ids are unguessable, not secret; the bytes are the same CSPRNG's either way.
 */
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;

function takeRandom16(): number {
  if (randomOffset + 16 > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const offset = randomOffset;
  randomOffset += 16;
  return offset;
}

/**
 * A ULID-style identifier: 10 characters of millisecond time, then 16 random
 * characters. Time first keeps new rows at the right edge of B-tree indexes.
 */
export function newId(kind: IdKind, now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const offset = takeRandom16();
  let rand = '';
  for (let i = offset; i < offset + 16; i++) rand += CROCKFORD[(randomPool[i] as number) % 32];
  return `${ID_PREFIXES[kind]}_${time}${rand}`;
}

/** Schema for an id of one kind. Lenient about the body so that a mistyped id is a 404, not a 400. */
export function idOf(kind: IdKind) {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return z
    .string()
    .max(64)
    .refine((s) => s.startsWith(prefix) && /^[A-Za-z0-9_]+$/.test(s), { message: `must be an id starting with ${prefix}` });
}
