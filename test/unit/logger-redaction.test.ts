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

t.test('two levels down and in headers as a client writes them, secrets are redacted too', async (t) => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', component: 'test', destination: { write: (line: string) => lines.push(line) } });
  log.warn(
    {
      call: { input: { password: 'deep-hunter2', email: 'kept@example.test' }, oauth: { code_verifier: 'deep-pkce-verifier' } },
      request: { headers: { Authorization: 'Bearer sk_live_capitalised', Cookie: 'crm_session=capitalised' } },
      headers: { Authorization: 'Bearer sk_live_top_capitalised' },
    },
    'something nested happened',
  );
  const out = lines.join('');
  for (const secret of ['deep-hunter2', 'deep-pkce-verifier', 'sk_live_capitalised', 'crm_session=capitalised', 'sk_live_top_capitalised']) {
    t.notOk(out.includes(secret), `${secret} is not logged`);
  }
  t.match(out, /"email":"kept@example.test"/);
});
