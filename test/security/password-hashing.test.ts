import { randomBytes, scryptSync } from 'node:crypto';
import t from 'tap';
import { addUser, BootstrapInput } from '../../shared/contracts/identity.js';
import { changePassword, signIn } from '../../shared/contracts/sessions.js';
import { CrmError } from '../../shared/errors.js';
import { PASSWORD_HASH_PARAMETERS } from '../../workers/tokens/credentials/passwords.js';
import { busAs } from '../helpers/bus-as.js';
import { whileHeld } from '../helpers/held-lock.js';
import { field, FormBrowser } from '../helpers/oauth-forms.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/** Password storage and choice, over real NATS to the tokens worker and through the console's form. */
const stack = await useStack(t);
const bus = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });
const { N, r, p } = PASSWORD_HASH_PARAMETERS;

async function storedHash(userId: string): Promise<string> {
  const [row] = await stack.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [userId]);
  return row?.password_hash ?? '';
}

async function outcome(call: Promise<unknown>): Promise<string> {
  return call.then(
    () => 'ok',
    (error: unknown) => {
      if (error instanceof CrmError) return error.code;
      throw error;
    },
  );
}

const signInOver = (email: string, password: string, ip: string) => bus.call(signIn, { email, password, ip }, { context: null, requestId: 'req_password_hashing' });

t.test('new hashes are scrypt at an OWASP-minimum cost, with the parameters stored in each', async (t) => {
  // Before, hashes were scrypt N=2^14, r=8, p=1: an eighth of the work OWASP asks for (N=2^17, r=8, p=1 or the same cost).
  const { user } = await stack.bootstrap({ email: 'cost@passwords.test' });
  const hash = await storedHash(user.id);
  t.match(hash, new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}$`));
  t.ok(r >= 8 && N * p >= 2 ** 15 * 3, `N=2^${Math.log2(N)}, r=${r}, p=${p}: OWASP's N=2^15, r=8, p=3 or more`);
  t.notMatch(hash, new RegExp(TEST_PASSWORD), 'never the password itself');
});

t.test('an older hash is upgraded at the next successful sign-in, not at a failed one', async (t) => {
  // Before, a hash stayed at the cost it was made with for ever.
  const { user } = await stack.bootstrap({ email: 'upgrade@passwords.test' });
  const salt = randomBytes(16);
  const old = ['scrypt', 16384, 8, 1, salt.toString('base64'), scryptSync(TEST_PASSWORD, salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64')].join('$');
  await stack.db.query('update users set password_hash = $1 where id = $2', [old, user.id]);

  t.equal(await outcome(signInOver(user.email, 'not the password at all', '203.0.113.40')), 'wrong_password');
  t.equal(await storedHash(user.id), old, 'a failed sign-in changes nothing');

  t.equal(await outcome(signInOver(user.email, TEST_PASSWORD, '203.0.113.40')), 'ok', 'the old hash still signs in');
  const upgraded = await storedHash(user.id);
  t.not(upgraded, old);
  t.match(upgraded, new RegExp(`^scrypt\\$${N}\\$${r}\\$${p}\\$`), 'and is replaced by one at the current cost');
  t.equal(await outcome(signInOver(user.email, TEST_PASSWORD, '203.0.113.40')), 'ok', 'which signs in too');
  t.equal(await storedHash(user.id), upgraded, 'and is not rehashed again');
});

t.test('common passwords are refused when a password is chosen', async (t) => {
  // Before, any 10 characters passed: "1234567890", "qwertyuiop" and "password123" included.
  const { user } = await stack.bootstrap({ email: 'common@passwords.test' });
  const { result: session } = await signInOver(user.email, TEST_PASSWORD, '203.0.113.41');
  const before = await storedHash(user.id);
  for (const common of ['1234567890', 'qwertyuiop', 'Password123']) {
    const refused = await bus.call(changePassword, { session_token: session.session_token, current_password: TEST_PASSWORD, new_password: common, ip: '203.0.113.41' }, { context: null, requestId: 'req_common' }).then(
      () => null,
      (error: unknown) => error,
    );
    t.ok(refused instanceof CrmError && refused.code === 'validation_failed', `${common}: validation_failed`);
    t.match(refused instanceof Error ? refused.message : '', /most commonly used passwords/);
  }
  t.equal(await storedHash(user.id), before, 'the password did not change');

  // The console's form says so in words.
  const browser = new FormBrowser();
  const signInPage = await (await browser.request(`${stack.baseUrl}/sign-in`)).text();
  await browser.postForm(`${stack.baseUrl}/sign-in`, { csrf_token: field(signInPage, 'csrf_token'), next: '/console/account', email: user.email, password: TEST_PASSWORD });
  const account = await (await browser.request(`${stack.baseUrl}/console/account`)).text();
  const res = await browser.postForm(`${stack.baseUrl}/console/account/password`, {
    csrf_token: field(account, 'csrf_token'),
    current_password: TEST_PASSWORD,
    new_password: 'iloveyou12',
    repeat_password: 'iloveyou12',
  });
  t.equal(res.status, 400);
  t.match(await res.text(), /New password: is one of the most commonly used passwords; choose another/);
  t.equal(await storedHash(user.id), before, 'still unchanged');
});

t.test('a few characters repeated are refused wherever a password is chosen', async (t) => {
  // Before, ten of one character passed: long enough and on no list, yet guessed at once.
  const { user } = await stack.bootstrap({ email: 'repeated@passwords.test' });
  const { result: session } = await signInOver(user.email, TEST_PASSWORD, '203.0.113.42');
  const before = await storedHash(user.id);
  for (const repeated of ['aaaaaaaaaa', '          ', 'abcabcabcabc', 'Ab1!Ab1!Ab1!']) {
    const call = bus.call(changePassword, { session_token: session.session_token, current_password: TEST_PASSWORD, new_password: repeated, ip: '203.0.113.42' }, { context: null, requestId: 'req_repeated' });
    const refused = await call.then(
      () => null,
      (error: unknown) => error,
    );
    t.ok(refused instanceof CrmError && refused.code === 'validation_failed', `${JSON.stringify(repeated)}: validation_failed`);
    t.match(refused instanceof Error ? refused.message : '', /a few characters repeated/);
    // The same rule for bootstrap and crm users add: one Password schema.
    t.notOk(BootstrapInput.safeParse({ organization: 'O', workspace: 'W', email: 'x@example.test', password: repeated }).success, 'refused by crm bootstrap');
    t.notOk(addUser.input.safeParse({ email: 'x@example.test', password: repeated, permissions: ['contacts.read'], visibility: 'all' }).success, 'refused by crm users add');
  }
  t.equal(await storedHash(user.id), before, 'the password did not change');
  t.ok(BootstrapInput.safeParse({ organization: 'O', workspace: 'W', email: 'x@example.test', password: 'abcabcabcabd' }).success, 'a near repeat is not refused');
});

t.test('a sign-in whose password is changed while it is checked starts no session', async (t) => {
  // Before, a sign-in with the old password that finished after the change (which ends every
  // session) got a session that outlived the change.
  const { user } = await stack.bootstrap({ email: 'changed-meanwhile@passwords.test' });
  const newHash = `scrypt$${N}$${r}$${p}$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
  const change = [{ sql: 'update users set password_hash = $2 where id = $1', params: [user.id, newHash] }];
  const { result, waited } = await whileHeld(stack.db.url, change, () => outcome(signInOver(user.email, TEST_PASSWORD, '203.0.113.43')));
  t.ok(waited, 'the sign-in waits for the change in progress');
  t.equal(result, 'wrong_password', 'then finds its password no longer the user\'s');
  const sessions = await stack.db.query('select id from user_sessions where user_id = $1', [user.id]);
  t.equal(sessions.length, 0, 'no session was started');
});
