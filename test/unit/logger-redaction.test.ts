import t from 'tap';
import { createLogger } from '../../shared/logger.js';

t.test('secrets are redacted wherever they appear; error codes are kept', async (t) => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', component: 'test', destination: { write: (line: string) => lines.push(line) } });
  log.info(
    {
      token: 'sk_live_topsecret',
      input: { password: 'hunter2-hunter2', token: 'sk_live_nested', name: 'kept' },
      headers: { authorization: 'Bearer sk_live_header', cookie: 'session=abc' },
      oauth: { refresh_token: 'rt_secret', code_verifier: 'pkce-value-123' },
      err: { code: '23505', constraint: 'contacts_workspace_phone_key' },
    },
    'something happened',
  );
  const out = lines.join('');
  for (const secret of ['sk_live_topsecret', 'hunter2', 'sk_live_nested', 'sk_live_header', 'session=abc', 'rt_secret', 'pkce-value-123']) {
    t.notOk(out.includes(secret), `${secret} is not logged`);
  }
  t.match(out, /"name":"kept"/);
  t.match(out, /"code":"23505"/, 'error codes stay readable');
});
