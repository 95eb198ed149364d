import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { CONFIG_VARIABLES, ConfigError, loadConfig } from '../../shared/config.js';
import { ROOT } from '../helpers/environment.js';

const README = path.join(ROOT, 'README.md');

/** The rows of the README's table under "## Configuration", as written. */
function readmeRows(): string[] {
  const section = readFileSync(README, 'utf8').split(/^## /m).find((s) => s.startsWith('Configuration\n')) ?? '';
  return section.split('\n').filter((line) => line.startsWith('| `'));
}

t.test("the README's configuration table is the one shared/config.ts declares", async (t) => {
  const rows = readmeRows();
  const documented = rows.map((row) => /^\| `([A-Z0-9_]+)`/.exec(row)?.[1]);
  const declared = CONFIG_VARIABLES.map((v) => v.variable);
  t.same(documented.filter((v) => !declared.includes(v ?? '')), [], 'every documented variable is read');
  t.same(declared.filter((v) => !documented.includes(v)), [], 'every variable read is documented');
  // The whole row, so a changed default or meaning shows here too; the expected row is the
  // one to paste into the README.
  t.same(rows, CONFIG_VARIABLES.map((v) => `| \`${v.variable}\` | ${v.byDefault} | ${v.meaning} |`));
});

t.test('defaults: embedded Postgres, in-process bus, loopback, port 3000', async (t) => {
  const config = loadConfig({});
  t.equal(config.databaseUrl, undefined);
  t.equal(config.natsUrl, undefined);
  t.equal(config.dataDir, path.resolve('.data'));
  t.equal(config.host, '127.0.0.1');
  t.equal(config.port, 3000);
  t.equal(config.busNamespace, 'crm');
  t.equal(config.logLevel, 'info');
  t.equal(config.adminPort, undefined);
  t.same(config.allowedHosts, []);
  t.equal(config.adminHost, '127.0.0.1', 'the admin port stays on loopback unless ADMIN_HOST says otherwise');
  t.same(config.rateLimits, { tokenPerMinute: 6000, grantPerMinute: 1200, sessionPerMinute: 600, signInPerMinute: 20, oauthPerMinute: 300, storeFailure: 'local', failedAuthPerMinute: 60 });
  t.equal(config.natsKvReplicas, 1);
});

t.test('values are parsed and reshaped for the code that reads them', async (t) => {
  const config = loadConfig({
    PORT: '0',
    PUBLIC_URL: 'https://crm.example.com//',
    MCP_ALLOWED_HOSTS: ' a.example , ,b.example',
    CRM_DATA_DIR: 'var/crm',
    RATE_LIMIT_SIGN_IN_PER_MINUTE: '0',
    ADMIN_PORT: '9464',
    UNRELATED: 'ignored',
  });
  t.equal(config.port, 0);
  t.equal(config.publicUrl, 'https://crm.example.com');
  t.same(config.allowedHosts, ['a.example', 'b.example']);
  t.equal(config.dataDir, path.resolve('var/crm'));
  t.equal(config.rateLimits.signInPerMinute, 0);
  t.equal(config.adminPort, 9464);
  t.notOk('UNRELATED' in config);
});

t.test('RATE_LIMIT_STORE_FAILURE is local, open or closed', async (t) => {
  t.equal(loadConfig({ RATE_LIMIT_STORE_FAILURE: 'closed' }).rateLimits.storeFailure, 'closed');
  t.throws(() => loadConfig({ RATE_LIMIT_STORE_FAILURE: 'none' }), /RATE_LIMIT_STORE_FAILURE/);
});

t.test('an empty value counts as unset', async (t) => {
  const config = loadConfig({ DATABASE_URL: '', PORT: '', CRM_SECRET: '' });
  t.equal(config.databaseUrl, undefined);
  t.equal(config.port, 3000);
  t.equal(config.secret, undefined);
});

t.test('invalid values are refused, one line per variable', async (t) => {
  const error = t.throws(() => loadConfig({ PORT: '70000', CRM_SECRET: 'short', BUS_NAMESPACE: 'a.b', LOG_LEVEL: 'loud' }));
  t.type(error, ConfigError);
  const lines = error instanceof Error ? error.message.split('\n') : [];
  t.equal(lines[0], 'Invalid configuration:');
  t.same(lines.slice(1).map((l) => /^ {2}([A-Z_]+): /.exec(l)?.[1]).sort(), ['BUS_NAMESPACE', 'CRM_SECRET', 'LOG_LEVEL', 'PORT']);
  t.ok(lines.includes('  CRM_SECRET: CRM_SECRET must be at least 32 characters'));
  t.ok(lines.includes('  BUS_NAMESPACE: BUS_NAMESPACE may hold letters, digits, _ and - only'));
});

t.test('CRM_SECRET is refused when it is a placeholder or made up; spaces at its ends are kept', async (t) => {
  // Before, 32 spaces and the example manifest's CHANGE-ME text were accepted as the key every other key comes from.
  const refusal = (secret: string) => t.throws(() => loadConfig({ CRM_SECRET: secret }), ConfigError) as Error;
  t.match(refusal(' '.repeat(32)).message, 'CRM_SECRET must be random (it holds fewer than 8 different characters)');
  t.match(refusal('x'.repeat(40)).message, 'CRM_SECRET must be random (it holds fewer than 8 different characters)');
  t.match(refusal('CHANGE-ME-to-64-random-hex-characters-from-openssl-rand').message, 'CRM_SECRET is still the example placeholder');
  t.match(refusal('changeme'.repeat(4)).message, 'CRM_SECRET is still the example placeholder');
  t.equal(loadConfig({ CRM_SECRET: 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0aGV5' }).secret, 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0aGV5');
  // A secret read from a file with its newline hashed every token with it: trimming it now would lock them out.
  t.equal(loadConfig({ CRM_SECRET: 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0aGV5\n' }).secret, 'Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0aGV5\n');
  t.ok(loadConfig({ CRM_SECRET: '0123456789abcdef0123456789abcdef' }).secret, 'a 32-character hex secret is accepted');
});

t.test('WEBHOOK_TIMEOUT is more than 0 and at most 1h', async (t) => {
  // Before, 0s and anything past the 24 days a timer holds were taken: every attempt timed out at once.
  t.equal(loadConfig({ WEBHOOK_TIMEOUT: '1h' }).webhooks.timeoutMs, 3_600_000);
  for (const value of ['0s', '30d', '2h']) t.throws(() => loadConfig({ WEBHOOK_TIMEOUT: value }), /WEBHOOK_TIMEOUT must be more than 0 and at most 1h/, value);
});

t.test('EVENTS_STREAM_MAX_AGE is at least 1s and at most 3650d', async (t) => {
  // Before, 0s was taken and JetStream kept events forever while setup-stream said "0 s";
  // 50ms and 100000000d failed only in setup-stream or the relay, with a NATS stack trace.
  t.equal(loadConfig({ EVENTS_STREAM_MAX_AGE: '1s' }).events.streamMaxAgeMs, 1000);
  t.equal(loadConfig({ EVENTS_STREAM_MAX_AGE: '3650d' }).events.streamMaxAgeMs, 3650 * 86_400_000);
  for (const value of ['0s', '50ms', '3651d', '100000000d']) {
    t.throws(() => loadConfig({ EVENTS_STREAM_MAX_AGE: value }), /EVENTS_STREAM_MAX_AGE: EVENTS_STREAM_MAX_AGE must be at least 1s and at most 3650d/, value);
  }
});

t.test('replies are checked in development and tests, not in production unless asked', async (t) => {
  t.equal(loadConfig({}).validateReplies, true, 'development (NODE_ENV unset)');
  t.equal(loadConfig({ NODE_ENV: 'production' }).validateReplies, false, 'production');
  t.equal(loadConfig({ NODE_ENV: 'production', VALIDATE_REPLIES: 'true' }).validateReplies, true, 'asked for in production');
  t.equal(loadConfig({ VALIDATE_REPLIES: 'false' }).validateReplies, false, 'turned off in development');
  t.throws(() => loadConfig({ VALIDATE_REPLIES: 'yes' }), /VALIDATE_REPLIES must be true or false/);
});

t.test('a number is digits only: a blank, hex, exponent or sign is refused, not read as a number', async (t) => {
  // A blank limit read as 0 turned the limit off.
  for (const [variable, value] of [
    ['RATE_LIMIT_TOKEN_PER_MINUTE', ' '],
    ['RATE_LIMIT_FAILED_AUTH_PER_MINUTE', '\t'],
    ['PORT', '0x10'],
    ['BUS_TIMEOUT_MS', '1e3'],
    ['WORKER_CONCURRENCY', '-0'],
    ['AUTH_CACHE_TTL_MS', '1.5'],
    ['DB_POOL_MAX', 'ten'],
  ] as const) {
    t.throws(() => loadConfig({ [variable]: value }), new RegExp(`${variable}: must be a whole number`), `${variable}=${JSON.stringify(value)}`);
  }
  t.throws(() => loadConfig({ WORKER_CONCURRENCY: '0' }), /WORKER_CONCURRENCY/, 'and then its range');
  t.equal(loadConfig({ BUS_TIMEOUT_MS: '2500' }).busTimeoutMs, 2500);
});

t.test('BODY_LIMIT is a size above zero, refused at start otherwise', async (t) => {
  for (const value of ['banana', ' 10kb', '-5kb', '0', '0kb', '10 furlongs']) {
    t.throws(() => loadConfig({ BODY_LIMIT: value }), /BODY_LIMIT: must be a size above zero/, JSON.stringify(value));
  }
  for (const value of ['100kb', '1mb', '1.5MB', '2048', '512 kb']) t.equal(loadConfig({ BODY_LIMIT: value }).bodyLimit, value);
});

t.test('TRUST_PROXY is a hop count or proxy addresses, refused at start otherwise', async (t) => {
  for (const value of ['true', 'yes', '10.0.0.0/33', 'loopback, proxy.internal']) {
    t.throws(() => loadConfig({ TRUST_PROXY: value }), /TRUST_PROXY: must be a number of proxies/, value);
  }
  for (const value of ['1', 'loopback', '10.0.0.1, 10.0.0.0/8', 'uniquelocal,::1,fd00::/8']) t.equal(loadConfig({ TRUST_PROXY: value }).trustProxy, value);
});

t.test('PUBLIC_URL is an http or https base URL', async (t) => {
  for (const value of ['javascript:alert(1)', 'ftp://crm.example.com', 'https://crm.example.com/?x=1', 'https://crm.example.com/#top', 'crm.example.com']) {
    t.throws(() => loadConfig({ PUBLIC_URL: value }), /PUBLIC_URL: must be/, value);
  }
  t.equal(loadConfig({ PUBLIC_URL: 'http://127.0.0.1:3000' }).publicUrl, 'http://127.0.0.1:3000');
});

t.test('PUBLIC_URL is kept as the origin clients compare with; a path prefix or credentials are refused at start', async (t) => {
  // Written with capitals or the default port, the OAuth resource identifiers (which clients normalise) never matched.
  const origins: [string, string][] = [
    ['https://CRM.Example.com:443/', 'https://crm.example.com'],
    ['HTTP://crm.example.com:80', 'http://crm.example.com'],
    ['https://crm.example.com:8443//', 'https://crm.example.com:8443'],
    ['http://[::1]:3000/', 'http://[::1]:3000'],
  ];
  for (const [value, origin] of origins) {
    t.equal(loadConfig({ PUBLIC_URL: value }).publicUrl, origin, value);
  }
  // Console redirects, forms and the OAuth metadata are served at the root: a prefix only half worked.
  for (const value of ['https://crm.example.com/crm', 'https://crm.example.com/crm/']) {
    t.throws(() => loadConfig({ PUBLIC_URL: value }), /PUBLIC_URL: must be an origin without a path .*rather than under a path prefix/, value);
  }
  t.throws(() => loadConfig({ PUBLIC_URL: 'https://admin:secret@crm.example.com' }), /PUBLIC_URL: must not hold a user name or password/);
});

t.test('MCP_ALLOWED_HOSTS entries are host names as the Host check compares them; one no Host can equal is refused at start', async (t) => {
  // An unbracketed IPv6 address was dropped and a wildcard kept as written: that host got 403, and nothing said why.
  t.same(loadConfig({ MCP_ALLOWED_HOSTS: 'fd00::1, [fd00::2]:8443, Internal.Example:8443, https://edge.example/, 10.0.0.7' }).allowedHosts, [
    '[fd00::1]',
    '[fd00::2]',
    'internal.example',
    'edge.example',
    '10.0.0.7',
  ]);
  for (const value of ['*.example.com', 'crm.example.com/mcp', 'ftp://crm.example.com', 'crm example.com']) {
    t.throws(() => loadConfig({ MCP_ALLOWED_HOSTS: `ok.example,${value}` }), /MCP_ALLOWED_HOSTS: must be host names or IP addresses/, value);
  }
});

t.test('DATABASE_URL is a postgres:// URL without a fragment, its password unrepeated', async (t) => {
  // Before, any URL passed: these failed only at connect, or never (the service waited for host "ss").
  for (const value of ['localhost:5432/crm', 'http://db.internal/crm', 'postgres://crm:hun#ter2@db.internal/crm']) {
    const error = t.throws(() => loadConfig({ DATABASE_URL: value }), /DATABASE_URL: must (be a postgres|not hold "#")/, value);
    t.notMatch(error instanceof Error ? error.message : '', /hun|ter2/, 'the value is not repeated');
  }
  for (const value of ['postgres://crm:hunter2@db.internal:5432/crm', 'postgresql://db.internal/crm?sslmode=require', 'postgres://crm:hun%23ter2@[::1]/crm']) {
    t.equal(loadConfig({ DATABASE_URL: value }).databaseUrl, value, value);
  }
});

t.test('NATS_URL is one or more NATS servers, refused at start otherwise, its credentials unrepeated', async (t) => {
  // Before, any text passed and failed at connect as "NATS … refused this process: Invalid URL. Check NATS_NKEY_SEED, NATS_CREDS and NATS_TLS_CA".
  for (const value of ['garbage url', 'http://nats-1:4222', 'nats://nats-1:4222/crm', 'nats://nats-1:4222,', 'nats://nats-1:99999', 'nats://:hunter2@/']) {
    const error = t.throws(() => loadConfig({ NATS_URL: value }), /NATS_URL: must be NATS servers, comma-separated/, value);
    t.notMatch(error instanceof Error ? error.message : '', /hunter2/, 'the value is not repeated');
  }
  for (const value of ['nats://127.0.0.1:4222', '127.0.0.1:4222', 'nats-1', 'nats://[::1]:4222', 'tls://s3cr3t-token@nats-1:4222, nats://crm:hunter2@nats-2:4222']) {
    t.equal(loadConfig({ NATS_URL: value }).natsUrl, value, value);
  }
});

t.test('HOST and ADMIN_HOST take an IP address or a host name, nothing else', async (t) => {
  for (const host of ['0.0.0.0', '::', '::1', 'localhost', 'crm-gateway.internal', 'crm_gateway']) {
    t.equal(loadConfig({ HOST: host, ADMIN_HOST: host }).host, host, host);
  }
  for (const host of ['http://0.0.0.0', '0.0.0.0:3000', ' 127.0.0.1', 'gateway/', '-bad.example']) {
    for (const variable of ['HOST', 'ADMIN_HOST']) {
      t.throws(() => loadConfig({ [variable]: host }), new RegExp(`${variable}: must be an IP address or a host name`), `${variable}=${JSON.stringify(host)}`);
    }
  }
});

t.test('WEBHOOK_DISABLE_AFTER is more than 0: at 0s an endpoint would be disabled at its first failure', async (t) => {
  t.equal(loadConfig({ WEBHOOK_DISABLE_AFTER: '1h' }).webhooks.disableAfterMs, 3_600_000);
  for (const value of ['0s', '0ms', '0d']) t.throws(() => loadConfig({ WEBHOOK_DISABLE_AFTER: value }), /WEBHOOK_DISABLE_AFTER: WEBHOOK_DISABLE_AFTER must be more than 0/, value);
});
