import t from 'tap';
import type { Request } from 'express';
import { FailedAuthLimit } from '../../gateway/auth/failed-auth-limit.js';
import { clientAddressOf } from '../../gateway/pages/failed-attempts.js';
import { clientAddressKey } from '../../gateway/rate-limit/client-address-key.js';
import { RateLimitRefusedError } from '../../gateway/rate-limit/rate-limit-headers.js';
import { RateLimiter } from '../../gateway/rate-limit/rate-limiter.js';
import { createLogger } from '../../shared/logger.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';

/**
 * Per-address limits (refused tokens, sign-in) against a client with an IPv6 network: it
 * holds a /64, 2^64 addresses. Before, each address was counted alone, so a fresh one per
 * request was never limited.
 */
t.test('IPv6 addresses count under their /64; IPv4, also written as IPv6, under the address', async (t) => {
  t.equal(clientAddressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  t.equal(clientAddressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64', 'the same /64, written in full');
  t.equal(clientAddressKey('2001:db8:1:3::1'), '2001:db8:1:3::/64', 'the next /64 is another client');
  t.equal(clientAddressKey('::1'), '0:0:0:0::/64');
  t.equal(clientAddressKey('fe80::1%eth0'), 'fe80:0:0:0::/64', 'a zone is not part of the key');
  t.equal(clientAddressKey('::ffff:192.0.2.7'), '192.0.2.7', 'IPv4 as IPv6');
  t.equal(clientAddressKey('::ffff:c000:207'), '192.0.2.7', 'in hex too');
  t.equal(clientAddressKey('192.0.2.7'), '192.0.2.7');
  t.equal(clientAddressKey('unknown'), 'unknown');
});

t.test('refused tokens from one /64 are one count, whichever address sends them', async (t) => {
  const log = createLogger({ level: 'silent', component: 'test', destination: { write: () => undefined } });
  const limit = new FailedAuthLimit(new RateLimiter('failed-auth', 3, new MemoryRateLimitStore(), log));
  for (let i = 1; i <= 3; i++) await limit.record(`2001:db8:7:7::${i.toString(16)}`);
  await t.rejects(limit.record('2001:db8:7:7::99'), RateLimitRefusedError, 'the fourth refusal, from a fresh address of the /64, is over the limit');
  t.throws(() => limit.check('2001:db8:7:7:1:2:3:4'), RateLimitRefusedError, 'and every address of it is stopped');
  t.doesNotThrow(() => limit.check('2001:db8:7:8::1'), 'another /64 is not');
});

t.test('failed sign-ins and password checks are counted (by the tokens worker) under the same key', async (t) => {
  const request = (ip: string) => ({ ip, socket: {} }) as unknown as Request;
  t.equal(clientAddressOf(request('2001:db8:9:9::1')), '2001:db8:9:9::/64');
  t.equal(clientAddressOf(request('2001:db8:9:9:ffff::2')), '2001:db8:9:9::/64', 'another address of the /64: the same count');
  t.equal(clientAddressOf(request('::ffff:198.51.100.4')), '198.51.100.4');
});
