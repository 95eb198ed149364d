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
/** An id after its prefix: milliseconds, then the random part (two halves of 40 bits). */
const TIME_CHARS = 10;
const RANDOM_CHARS = 16;

/**
 * Random bytes fetched 4 KB at a time and handed out a few at a time, as Node's randomUUID
 * does: one call into the system's generator per hundreds of ids instead of one per id (a
 * request makes several). Ids are unguessable, not secret; the bytes are the same CSPRNG's
 * either way.
 */
const randomPool = Buffer.alloc(4096);
let randomOffset = randomPool.length;

function takeRandom(bytes: number): number {
  if (randomOffset + bytes > randomPool.length) {
    randomFillSync(randomPool);
    randomOffset = 0;
  }
  const offset = randomOffset;
  randomOffset += bytes;
  return offset;
}

/** The random part is two numbers of 8 characters (40 bits) each: plain arithmetic, exact in a double. */
const HALF = 32 ** (RANDOM_CHARS / 2);

interface RandomPart {
  high: number;
  low: number;
}

/** 16 random characters, as ever: each byte's low 5 bits. */
function freshRandom(): RandomPart {
  const offset = takeRandom(RANDOM_CHARS);
  let high = 0;
  let low = 0;
  for (let i = 0; i < RANDOM_CHARS / 2; i++) high = high * 32 + ((randomPool[offset + i] as number) % 32);
  for (let i = RANDOM_CHARS / 2; i < RANDOM_CHARS; i++) low = low * 32 + ((randomPool[offset + i] as number) % 32);
  return { high, low };
}

/** 1 to 2^32: how far the next id of a millisecond is from the last, so it cannot be told from it. */
function randomStep(): number {
  return randomPool.readUInt32BE(takeRandom(4)) + 1;
}

function encode(value: number, length: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < length; i++) {
    out = CROCKFORD[v % 32] + out;
    v = Math.floor(v / 32);
  }
  return out;
}

/**
 * The last id made of each kind in this process. Of one kind only: a public id (a request
 * id in a response header) says nothing of the next id of another kind.
 */
const lastIds: Partial<Record<IdKind, { time: number } & RandomPart>> = {};

/**
 * A ULID-style identifier: 10 characters of millisecond time, then 16 random characters.
 * Time first keeps new rows at the right edge of B-tree indexes. Monotonic in a process, as
 * ULID's monotonic factory: within one millisecond (or when the clock, or a caller's `now`,
 * goes back) the next id of a kind counts on from the last by a random step, so an id made
 * later always sorts after; lists ordered by (created_at, id) keep the order things happened.
 */
export function newId(kind: IdKind, now = Date.now()): string {
  const last = lastIds[kind];
  let time = now;
  let random: RandomPart;
  if (last && now <= last.time) {
    time = last.time;
    random = { high: last.high, low: last.low + randomStep() };
    if (random.low >= HALF) random = { high: random.high + 1, low: random.low - HALF };
    if (random.high >= HALF) {
      // The random part ran out (about never: 2^80 values): on to the next millisecond.
      time += 1;
      random = freshRandom();
    }
  } else {
    random = freshRandom();
  }
  lastIds[kind] = { time, ...random };
  return `${ID_PREFIXES[kind]}_${encode(time, TIME_CHARS)}${encode(random.high, RANDOM_CHARS / 2)}${encode(random.low, RANDOM_CHARS / 2)}`;
}

/** Whether `s` is an id of this kind exactly as {@link newId} makes them (prefix, then Crockford characters). */
export function isMadeId(kind: IdKind, s: string): boolean {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return s.length === prefix.length + TIME_CHARS + RANDOM_CHARS && s.startsWith(prefix) && [...s.slice(prefix.length)].every((c) => CROCKFORD.includes(c));
}

/** Schema for an id of one kind. Lenient about the body so that a mistyped id is a 404, not a 400. */
export function idOf(kind: IdKind) {
  const prefix = `${ID_PREFIXES[kind]}_`;
  return z
    .string()
    .max(64)
    .refine((s) => s.startsWith(prefix) && /^[A-Za-z0-9_]+$/.test(s), { message: `must be an id starting with ${prefix}` });
}
