import t from 'tap';
import { changePassword, signIn } from '../../shared/contracts/sessions.js';
import { CrmError } from '../../shared/errors.js';
import { busAs } from '../helpers/bus-as.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';
import { SIGN_IN_LIMITS } from '../../workers/tokens/sessions/sign-in-attempts.js';

/**
 * Password guessing against the tokens worker's sign-in, over real NATS, with client
 * addresses from TEST-NET (203.0.113.0/24) as a gateway would pass them on.
 */
const stack = await useStack(t);
const bus = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });

/** The outcome of one sign-in: ok, or the error code (wrong_password means the password was checked). */
async function attempt(email: string, password: string, ip: string): Promise<string> {
  try {
    await bus.call(signIn, { email, password, ip }, { context: null, requestId: 'req_sign_in_limits' });
    return 'ok';
  } catch (error) {
    if (error instanceof CrmError) return error.code;
    throw error;
  }
}

/** The outcome of one password change over a signed-in session, as {@link attempt}'s. */
async function change(sessionToken: string, currentPassword: string, ip: string): Promise<string> {
  try {
    await bus.call(changePassword, { session_token: sessionToken, current_password: currentPassword, new_password: 'a new passphrase 42', ip }, { context: null, requestId: 'req_change_limits' });
    return 'ok';
  } catch (error) {
    if (error instanceof CrmError) return error.code;
    throw error;
  }
}

const tally = (outcomes: string[]) => outcomes.reduce<Record<string, number>>((n, o) => ({ ...n, [o]: (n[o] ?? 0) + 1 }), {});

t.test('40 parallel wrong guesses for one address: at most 5 password checks', async (t) => {
  // Before, the check counted failures and the failure was recorded only after the
  // password check, so every one of 40 parallel guesses passed the check.
  const { user } = await stack.bootstrap({ email: 'race@limits.test' });
  const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(user.email, `wrong guess ${i}`, '203.0.113.10')));
  t.same(tally(outcomes), { wrong_password: SIGN_IN_LIMITS.perEmailAndIp, rate_limited: 40 - SIGN_IN_LIMITS.perEmailAndIp });
  t.equal(await attempt(user.email, TEST_PASSWORD, '203.0.113.10'), 'rate_limited', 'the right password waits too, from that address');
});

t.test('failures from one address do not lock out the user elsewhere; many addresses hit a slower backstop', async (t) => {
  // Before, five failures from anywhere locked the account for everyone for 15 minutes.
  const { user } = await stack.bootstrap({ email: 'lockout@limits.test' });
  for (let i = 0; i < SIGN_IN_LIMITS.perEmailAndIp; i++) t.equal(await attempt(user.email, `wrong ${i}`, '203.0.113.20'), 'wrong_password');
  t.equal(await attempt(user.email, TEST_PASSWORD, '203.0.113.20'), 'rate_limited', 'the guessing address is stopped');
  t.equal(await attempt(user.email, TEST_PASSWORD, '203.0.113.21'), 'ok', 'the user signs in from elsewhere');

  // Spread over many addresses, the failures per address stay low until the per-address
  // backstop. Guesses from earlier addresses are recorded as the worker records them (a
  // real guess costs a password hash, a quarter of a second); the last ones are real.
  const [counted] = await stack.db.query<{ failures: string }>('select count(*) as failures from sign_in_attempts where email = $1 and not succeeded', [user.email]);
  const earlier = SIGN_IN_LIMITS.perEmail - Number(counted?.failures) - 3;
  await stack.db.query(
    `insert into sign_in_attempts (email, ip, succeeded, created_at)
     select $1, '198.51.100.' || (1 + i / ${SIGN_IN_LIMITS.perEmailAndIp - 1}), false, now() from generate_series(0, $2 - 1) as i`,
    [user.email, earlier],
  );
  const last: string[] = [];
  for (let a = 0; a < 4; a++) last.push(await attempt(user.email, `spread ${a}`, `198.51.100.${200 + a}`));
  t.same(last, ['wrong_password', 'wrong_password', 'wrong_password', 'rate_limited'], 'fresh addresses are checked until the backstop, then refused');
  t.equal(await attempt(user.email, TEST_PASSWORD, '203.0.113.22'), 'rate_limited', 'past the backstop, the address waits everywhere');
});

t.test('the password change counts its current-password check like a sign-in', async (t) => {
  // Before, a stolen session cookie could guess the current password without limit, then change it.
  const { user } = await stack.bootstrap({ email: 'change@limits.test' });
  const { result: session } = await bus.call(signIn, { email: user.email, password: TEST_PASSWORD, ip: '203.0.113.30' }, { context: null, requestId: 'req_change_limits' });
  for (let i = 0; i < SIGN_IN_LIMITS.perEmailAndIp; i++) t.equal(await change(session.session_token, `wrong ${i}`, '203.0.113.31'), 'wrong_password');
  t.equal(await change(session.session_token, 'wrong again', '203.0.113.31'), 'rate_limited', 'refused once the guesses run out');
  t.equal(await change(session.session_token, TEST_PASSWORD, '203.0.113.31'), 'rate_limited', 'the right password waits too, from that address');
  t.equal(await attempt(user.email, TEST_PASSWORD, '203.0.113.31'), 'rate_limited', 'and so does signing in from there: one count for both');
  t.equal(await attempt(user.email, TEST_PASSWORD, '203.0.113.32'), 'ok', 'the password is unchanged, and the user signs in from elsewhere');

  t.equal(await change(session.session_token, TEST_PASSWORD, '203.0.113.33'), 'ok', 'from another address the change goes through');
  const rows = await stack.db.query<{ succeeded: boolean }>("select succeeded from sign_in_attempts where email = $1 and ip = '203.0.113.33'", [user.email]);
  t.same(rows, [{ succeeded: true }], 'a right current password is recorded as a success');
});
