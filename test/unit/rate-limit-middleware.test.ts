import type { NextFunction, Request, Response } from 'express';
import t from 'tap';
import { limitByCredential, type GatewayRateLimits } from '../../gateway/rate-limit/rate-limit-middleware.js';
import { RateLimiter } from '../../gateway/rate-limit/rate-limiter.js';
import type { ResolvedCredential } from '../../gateway/request-state.js';
import { RateLimitedError } from '../../shared/errors.js';
import { createLogger } from '../../shared/logger.js';
import { MemoryRateLimitStore } from '../../shared/rate-limit/memory-rate-limit-store.js';

/**
 * The middleware alone, on the limiters it is given: a request that a lease this gateway
 * already holds covers is decided in the same tick (no promise, no await), since one
 * awaited step per request is measurable at the request rates a token may reach.
 * Only what the middleware reads is built: `req.credential`, `res.set` and `next`.
 */

const log = createLogger({ level: 'silent', component: 'test', destination: { write: () => undefined } });

function limitsWith(overrides: Partial<GatewayRateLimits>): GatewayRateLimits {
  return { token: null, grant: null, session: null, signIn: null, failedAuth: null, ...overrides };
}

function credentialOf(kind: ResolvedCredential['kind'], id: string): ResolvedCredential {
  const workspaceId = 'ws_01JABCDEFGHJKMNPQRSTVWXYZ0';
  return {
    kind,
    workspaceId,
    scopes: ['contacts:read'],
    ...(kind === 'api_token' ? { tokenId: id } : kind === 'oauth' ? { grantId: id } : {}),
    context: { workspace_id: workspaceId, principal: { type: 'token', id, scopes: ['contacts:read'] }, visibility: 'all' },
  };
}

/** One request through the middleware: whether `next` ran before the call returned, and with what. */
function send(middleware: ReturnType<typeof limitByCredential>, credential: ResolvedCredential) {
  const headers = new Map<string, string>();
  const req = { credential } as unknown as Request;
  const res = {
    set(name: string, value: string) {
      headers.set(name, value);
      return this;
    },
  } as unknown as Response;
  const calls: unknown[] = [];
  let settle = (): void => undefined;
  const nextCalled = new Promise<void>((resolve) => (settle = resolve));
  const next: NextFunction = (error?: unknown) => {
    calls.push(error);
    settle();
  };
  middleware(req, res, next);
  // Read before anything is awaited: only a `next` called synchronously is counted here.
  const synchronous = calls.length;
  return { headers, calls, synchronous, nextCalled };
}

t.test('a request that a held lease covers passes at once: next before the middleware returns, headers set', async (t) => {
  const limiter = new RateLimiter('token', 1000, new MemoryRateLimitStore(), log);
  const middleware = limitByCredential(limitsWith({ token: limiter }));
  const credential = credentialOf('api_token', 'tok_held');

  const first = send(middleware, credential);
  t.equal(first.synchronous, 0, 'the first request waits for its lease from the store');
  await first.nextCalled;
  t.same(first.calls, [undefined], 'then passes');
  t.equal(first.headers.get('RateLimit-Remaining'), String(1000 - 20 + 19), 'counted against the lease of 20');

  for (let i = 2; i <= 5; i++) {
    const covered = send(middleware, credential);
    t.equal(covered.synchronous, 1, `request ${i}: next was called synchronously, without a promise`);
    t.same(covered.calls, [undefined], `request ${i}: allowed, no error`);
    t.equal(covered.headers.get('RateLimit-Limit'), '1000');
    t.equal(covered.headers.get('RateLimit-Remaining'), String(1000 - 20 + 20 - i), `request ${i}: counted`);
    t.match(covered.headers.get('RateLimit-Reset'), /^([1-9]|[1-5][0-9]|60)$/, 'seconds until the window resets');
    t.equal(covered.headers.get('RateLimit-Policy'), '1000;w=60');
    t.notOk(covered.headers.has('Retry-After'), 'no Retry-After on an allowed request');
  }
});

t.test('an OAuth grant is limited the same way, by its own limiter', async (t) => {
  const grant = new RateLimiter('grant', 500, new MemoryRateLimitStore(), log);
  const middleware = limitByCredential(limitsWith({ grant }));
  await send(middleware, credentialOf('oauth', 'grt_held')).nextCalled;
  const covered = send(middleware, credentialOf('oauth', 'grt_held'));
  t.equal(covered.synchronous, 1, 'covered: next called synchronously');
  t.equal(covered.headers.get('RateLimit-Limit'), '500');
  t.equal(covered.headers.get('RateLimit-Remaining'), String(500 - 10 + 8));
});

t.test('a spent window refuses at once too: next(RateLimitedError) synchronously, with Retry-After', async (t) => {
  const limiter = new RateLimiter('token', 1, new MemoryRateLimitStore(), log);
  const middleware = limitByCredential(limitsWith({ token: limiter }));
  const credential = credentialOf('api_token', 'tok_spent');
  const first = send(middleware, credential);
  await first.nextCalled;
  t.same(first.calls, [undefined], 'the one request of the window passes');
  const second = send(middleware, credential);
  await second.nextCalled;
  t.type(second.calls[0], RateLimitedError, 'the next one learns from the store that the window is spent');

  const third = send(middleware, credential);
  t.equal(third.synchronous, 1, 'after that, refused without asking the store or awaiting');
  t.type(third.calls[0], RateLimitedError);
  t.equal(third.headers.get('RateLimit-Remaining'), '0');
  t.match(third.headers.get('Retry-After'), /^[1-9]\d*$/, 'Retry-After is a number of seconds');
  t.equal(third.headers.get('Retry-After'), third.headers.get('RateLimit-Reset'), 'Retry-After says when the window resets');
});

t.test('console sessions and turned-off limits are not limited', async (t) => {
  const limiter = new RateLimiter('token', 1000, new MemoryRateLimitStore(), log);
  const session = send(limitByCredential(limitsWith({ token: limiter })), credentialOf('session', 'usr_console'));
  t.equal(session.synchronous, 1, 'a session passes at once');
  t.equal(session.headers.size, 0, 'with no rate-limit headers');
  const off = send(limitByCredential(limitsWith({})), credentialOf('api_token', 'tok_unlimited'));
  t.equal(off.synchronous, 1, 'with the token limit off (0), a token passes at once');
  t.equal(off.headers.size, 0, 'with no rate-limit headers');
});
