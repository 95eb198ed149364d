import { randomBytes } from 'node:crypto';
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
  const bytes = randomBytes(16);
  let rand = '';
  for (const b of bytes) rand += CROCKFORD[b % 32];
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
