import t from 'tap';
import { InvalidRequestError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { oauthErrorFrom } from '../../gateway/oauth/oauth-errors.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { createLogger } from '../../shared/logger.js';

t.test('an OAuth endpoint logs the failures it cannot explain, and only those', async (t) => {
  const lines: string[] = [];
  const log = createLogger({ level: 'info', component: 'test', destination: { write: (line: string) => lines.push(line) } });

  const unexplained = oauthErrorFrom(new TypeError("Cannot read properties of undefined (reading 'client')"), InvalidRequestError, log);
  t.type(unexplained, ServerError, 'a 500 for the client');
  t.equal(unexplained.message, 'Internal Server Error', 'with nothing of the cause');
  t.equal(lines.length, 1, 'and one error line for the operator (the SDK writes none)');
  const line = JSON.parse(lines[0] ?? '{}') as { level?: string; msg?: string; err?: { message?: string } };
  t.equal(line.level, 'error');
  t.equal(line.msg, 'OAuth endpoint failed');
  t.match(line.err?.message, /reading 'client'/, 'naming the cause');

  t.type(oauthErrorFrom(new ValidationError('redirect_uri: must be a URL', 'redirect_uri'), InvalidRequestError, log), InvalidRequestError);
  t.type(oauthErrorFrom(new NotFoundError('client', 'x', 'client_id'), InvalidRequestError, log), ServerError);
  t.equal(lines.length, 1, 'domain errors are answered, not logged again');
});
