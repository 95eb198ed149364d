import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { COMMAND_NATS_WAIT_MS } from '../../cli/command-nats.js';
import { ROOT } from '../helpers/environment.js';
import { prepareEnvironment, TEST_PASSWORD } from '../helpers/stack.js';

/** The `crm` command line against a real database: no service process is running. */
const stack = await prepareEnvironment();
t.teardown(() => stack.stop());
// The subtests use organizations of their own: run them side by side (each `crm` is a process).
t.jobs = 3;

t.test('bad arguments: a clear message, usage, and a non-zero exit', async (t) => {
  const cases: [string[], RegExp][] = [
    [['frobnicate'], /Unknown command: frobnicate/],
    [['tokens'], /Missing the tokens command/],
    [['tokens', 'create', '--workspace', 'x'], /Missing required option --scopes/],
    [['tokens', 'create', '--workspace', 'x', '--scopes', 'contacts:read,contacts:destroy'], /Unknown scope: contacts:destroy/],
    [['tokens', 'create', '--workspace', 'x', '--scopes', 'contacts:read', '--expires-in', 'soon'], /Cannot read the duration/],
    [['tokens', 'create', '--workspace', 'x', '--scopes', 'contacts:read', '--expires-in', '99999999999d'], /The duration "99999999999d" is too long: at most 36500d/],
    [['tokens', 'create', '--bogus'], /^crm: Unknown option '--bogus'\.\n\nUsage: crm tokens/],
    [['bootstrap', '--org', 'A'], /Missing required option --workspace/],
    [['users', 'add', '--workspace', 'x', '--email', 'a@b.c', '--password', 'p', '--permissions', 'root', '--visibility', 'all'], /Unknown permission: root/],
    [['users', 'add', '--workspace', 'x', '--email', 'a@b.c', '--password', 'p', '--permissions', 'contacts.read', '--visibility', 'some'], /--visibility must be/],
    [['worker', 'payments'], /Unknown worker: payments/],
    // A stray word is usually the rest of an unquoted value: acting without it would do less than was meant.
    [['tokens', 'create', '--workspace', 'x', '--scopes', 'contacts:read', 'contacts:write'], /Unexpected argument: contacts:write/],
    [['tokens', 'list', '--workspace', 'x', 'extra'], /Unexpected argument: extra/],
    // A repeated option would keep only its last value: the token would have deals:read alone.
    [['tokens', 'create', '--workspace', 'x', '--scopes', 'contacts:read', '--scopes', 'deals:read'], /--scopes is given more than once; give it once \(the list goes in one value, comma-separated\)/],
    // Before, it said a list goes in one value: --type takes one type or prefix, not a list.
    [['events', 'tail', '--workspace', 'x', '--type', 'contact.', '--type', 'deal.'], /--type is given more than once; give it once\.\n/],
    [['bootstrap', '--org', 'A', '--workspace', 'W', '--email', 'a@b.c', '--email', 'c@d.e', '--password', TEST_PASSWORD], /--email is given more than once; give it once\.\n/],
    [['bootstrap', '--org', 'Acme', 'Corp', '--workspace', 'W', '--email', 'a@b.c', '--password', TEST_PASSWORD], /Unexpected argument: Corp/],
    [['users', 'add', '--workspace', 'x', '--email', 'a@b.c', '--password', TEST_PASSWORD, '--permissions', 'contacts.read', 'deals.read', '--visibility', 'all'], /Unexpected argument: deals.read/],
    // Before, created: --workspace ws_sales then looked for that id, and the workspace could be given by id alone.
    [['bootstrap', '--org', 'Globex', '--workspace', 'ws_sales', '--email', 'hank@globex.test', '--password', TEST_PASSWORD], /^crm: --workspace must not start with ws_, which reads as a workspace id/],
    [['keys', 'rotate', 'now'], /Unexpected argument: now/],
    [['migrate', 'up'], /Unexpected argument: up/],
    // Before, the rest of an unquoted name was dropped: the tail followed "Acme", or said no such workspace.
    [['events', 'tail', '--workspace', 'Acme', 'Sales'], /Unexpected argument: Sales/],
    [['mcp-config', 'CRM_TOKEN'], /Unexpected argument: CRM_TOKEN/],
    [['mcp-config', '--url', 'crm.example.com'], /--url takes the service's base URL, e\.g\. https:\/\/crm\.example\.com; "crm\.example\.com" is not a URL/],
    [['mcp-config', '--url', 'https://crm.example.com/mcp/crm'], /--url takes the service's base URL, without \/mcp\/crm/],
    [['mcp-config', '--url', 'https://crm.example.com/mcp/'], /--url takes the service's base URL, without \/mcp: the server paths \(\/mcp\/crm, \/mcp\/studio\) are added to it/],
    [['mcp-config', '--url', 'ftp://crm.example.com'], /--url must be an http or https URL/],
    // Before, printed as given: addresses under a prefix the service does not serve.
    [['mcp-config', '--url', 'https://crm.example.com/crm'], /--url takes the service's address without a path, e\.g\. https:\/\/crm\.example\.com/],
    [['nats', 'keys', 'gateway'], /Unexpected argument: gateway/],
    [['nats', 'config', '--json'], /Unknown option '--json'/],
    // The command line's environment holds its own role's NATS_NKEY_SEED, as a deployment's does.
    [['worker', 'contacts', 'deals'], /each worker kind runs in its own process/],
  ];
  // Independent commands: run them side by side.
  const results = await Promise.all(cases.map(([args]) => stack.crm(args)));
  for (const [i, [args, message]] of cases.entries()) {
    const res = results[i] ?? { code: null, stdout: '', stderr: '' };
    t.equal(res.code, 2, `crm ${args.join(' ')} exits 2`);
    t.match(res.stderr, message);
    t.equal(res.stdout, '', 'nothing on stdout');
  }
});

t.test('crm mcp-config without --url or PUBLIC_URL: the address the gateway answers at', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const urlsWith = async (env: NodeJS.ProcessEnv) => {
    const res = await runCrm(['mcp-config'], { ...stack.env, PUBLIC_URL: '', ...env });
    t.equal(res.code, 0, res.stderr);
    const config = JSON.parse(res.stdout) as { mcpServers: Record<string, { url: string }> };
    return Object.values(config.mcpServers).map((server) => new URL(server.url).origin);
  };
  t.same(await urlsWith({ HOST: '0.0.0.0', PORT: '4100' }), ['http://127.0.0.1:4100', 'http://127.0.0.1:4100'], 'every interface: reached on loopback');
  // An IPv6 address in brackets: http://::1:4100 is not a URL at all.
  t.same(await urlsWith({ HOST: '::1', PORT: '4100' }), ['http://[::1]:4100', 'http://[::1]:4100']);
  const unknownPort = await runCrm(['mcp-config'], { ...stack.env, PUBLIC_URL: '', PORT: '0' });
  t.equal(unknownPort.code, 2, 'PORT=0 is chosen at start: no address to print');
  t.match(unknownPort.stderr, /PORT=0 picks a free port when the gateway starts, so the address is not known here: give --url, or set PUBLIC_URL/);
  t.equal(unknownPort.stdout, '');
  // --url is kept as its origin, as PUBLIC_URL is: written with capitals or :443 it matched no OAuth resource.
  const given = await runCrm(['mcp-config', '--url', 'HTTPS://CRM.Example.com:443/'], stack.env);
  t.equal(given.code, 0, given.stderr);
  const servers = (JSON.parse(given.stdout) as { mcpServers: Record<string, { url: string }> }).mcpServers;
  t.same(Object.values(servers).map((server) => server.url), ['https://crm.example.com/mcp/crm', 'https://crm.example.com/mcp/studio']);
});

t.test('crm --version prints the package version', async (t) => {
  // Before, --version was an unknown command (exit 2), and the tool servers called themselves 1.0.0.
  const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const res = await stack.crm([flag]);
    t.equal(res.code, 0, `crm ${flag} exits 0`);
    t.equal(res.stdout, `crm ${version}\n`, `crm ${flag} prints the version`);
  }
});

t.test('crm COMMAND --help prints that command\'s usage, subcommands or not', async (t) => {
  const commands = ['start', 'gateway', 'worker', 'migrate', 'bootstrap', 'users', 'tokens', 'mcp-config', 'keys', 'nats', 'events', 'webhooks', 'import'];
  const results = await Promise.all(commands.map((name) => stack.crm([name, '--help'])));
  for (const [i, name] of commands.entries()) {
    const res = results[i] ?? { code: null, stdout: '', stderr: '' };
    t.equal(res.code, 0, `crm ${name} --help exits 0`);
    t.match(res.stdout, new RegExp(`^Usage: crm ${name}\\b`), `crm ${name} --help prints its usage`);
    t.equal(res.stderr, '', 'nothing on stderr');
  }
  // Before, `crm help tokens` printed the list of commands.
  const helpTokens = await stack.crm(['help', 'tokens']);
  t.equal(helpTokens.code, 0);
  t.match(helpTokens.stdout, /^Usage: crm tokens create/);
  t.equal((await stack.crm(['help', 'frobnicate'])).code, 2, 'help for an unknown command: a usage error');
  const sub = await stack.crm(['tokens', 'create', '-h']);
  t.equal(sub.code, 0);
  t.match(sub.stdout, /^Usage: crm tokens create/);
});

t.test('errors from the service are reported with exit code 1', async (t) => {
  const res = await stack.crm(['tokens', 'create', '--workspace', 'No Such Workspace', '--scopes', 'contacts:read']);
  t.equal(res.code, 1);
  // Before, the line ended with the API's field name: "No such workspace: No Such Workspace. (workspace)",
  // and "No such token: tok_x. (id)" for a TOKEN_ID the user had given as a positional argument.
  t.equal(res.stderr, 'crm: No such workspace: No Such Workspace.\n');
});

t.test('a password the service refuses is named by where it came from, as a bad option is, exit 2', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const boot = ['bootstrap', '--org', 'O', '--workspace', 'W', '--email', 'x@y.test', '--json'];
  const umbrella = await stack.crm(['bootstrap', '--org', 'Umbrella', '--workspace', 'Labs', '--email', 'wesker@umbrella.test', '--password', TEST_PASSWORD, '--json']);
  const workspaceId = (JSON.parse(umbrella.stdout) as { workspace: { id: string } }).workspace.id;
  const add = ['users', 'add', '--workspace', workspaceId, '--email', 'x@y.test', '--permissions', 'contacts.read', '--visibility', 'all'];
  // Before: "crm: password: must be at least 10 characters (password)", exit 1, whichever way it was given.
  const cases: [Promise<{ code: number | null; stdout: string; stderr: string }>, RegExp][] = [
    [stack.crm([...boot, '--password', 'short']), /^crm: --password must be at least 10 characters\n/],
    [stack.crm([...add, '--password', 'short']), /^crm: --password must be at least 10 characters\n/],
    [runCrm(boot, { ...stack.env, CRM_PASSWORD: 'short' }), /^crm: CRM_PASSWORD must be at least 10 characters\n/],
    [runCrm([...boot, '--password-stdin'], stack.env, 'short\n'), /^crm: the password read from standard input must be at least 10 characters\n/],
  ];
  for (const [run, message] of cases) {
    const res = await run;
    t.equal(res.code, 2);
    t.match(res.stderr, message);
    t.equal(res.stdout, '', 'nothing on stdout, --json or not');
  }
});

t.test('bootstrap: --json prints one JSON object; running again adds a workspace to the same organization and user', async (t) => {
  const first = await stack.crm(['bootstrap', '--org', 'Initech', '--workspace', 'Sales', '--email', 'boss@initech.test', '--password', TEST_PASSWORD, '--default-country', 'us', '--json']);
  t.equal(first.code, 0, first.stderr);
  const one = JSON.parse(first.stdout) as { organization: { id: string; created: boolean }; workspace: { id: string; default_country: string }; user: { id: string; created: boolean } };
  t.equal(one.organization.created, true);
  t.equal(one.user.created, true);
  t.equal(one.workspace.default_country, 'US');

  const second = await stack.crm(['bootstrap', '--org', 'initech', '--workspace', 'Support', '--email', 'BOSS@initech.test', '--password', TEST_PASSWORD, '--json']);
  t.equal(second.code, 0, second.stderr);
  const two = JSON.parse(second.stdout) as typeof one & { workspace: { created: boolean } };
  t.equal(two.organization.id, one.organization.id, 'same organization (names match without case)');
  t.equal(two.user.id, one.user.id, 'same user (e-mail matches without case)');
  t.equal(two.workspace.created, true);
  t.not(two.workspace.id, one.workspace.id);

  const again = await stack.crm(['bootstrap', '--org', 'Initech', '--workspace', 'Sales', '--email', 'boss@initech.test', '--password', TEST_PASSWORD, '--json']);
  t.equal((JSON.parse(again.stdout) as { workspace: { id: string; created: boolean } }).workspace.id, one.workspace.id, 'idempotent');

  const wrongPassword = await stack.crm(['bootstrap', '--org', 'Initech', '--workspace', 'Ops', '--email', 'boss@initech.test', '--password', 'not the right password']);
  t.equal(wrongPassword.code, 1, 'an existing user is never given a new password silently');

  const pipelines = await stack.db.query<{ name: string; stages: string }>(
    `select p.name, string_agg(s.name, ',' order by s.position) as stages from pipelines p join stages s on s.pipeline_id = p.id
     where p.workspace_id = $1 group by p.name`,
    [one.workspace.id],
  );
  t.same(pipelines, [{ name: 'Sales', stages: 'Lead,Qualified,Negotiation,Won,Lost' }], 'a new workspace starts with the default pipeline');

  const members = await stack.db.query<{ permissions: string[]; visibility: string }>('select permissions, visibility from memberships where workspace_id = $1', [one.workspace.id]);
  t.same(members, [{ permissions: ['contacts.read', 'contacts.write', 'deals.read', 'deals.write', 'configuration'], visibility: 'all' }]);
});

t.test('users add, tokens create/list/revoke with --json', async (t) => {
  const boot = JSON.parse((await stack.crm(['bootstrap', '--org', 'Hooli', '--workspace', 'Core', '--email', 'gavin@hooli.test', '--password', TEST_PASSWORD, '--json'])).stdout) as {
    workspace: { id: string };
  };
  const add = await stack.crm(['users', 'add', '--workspace', 'Core', '--email', 'rep@hooli.test', '--password', TEST_PASSWORD, '--permissions', 'contacts.read,deals.read', '--visibility', 'owned', '--json']);
  t.equal(add.code, 0, add.stderr);
  t.match(JSON.parse(add.stdout), { email: 'rep@hooli.test', permissions: ['contacts.read', 'deals.read'], visibility: 'owned', user_created: true, member_created: true });
  // Run again, it updates the member and says so rather than claiming to add them.
  const again = await stack.crm(['users', 'add', '--workspace', 'Core', '--email', 'rep@hooli.test', '--password', TEST_PASSWORD, '--permissions', 'contacts.read', '--visibility', 'all']);
  t.equal(again.code, 0, again.stderr);
  t.match(again.stdout, /^rep@hooli\.test \(usr_\w+\) was a member of ws_\w+ already: permissions and visibility updated\npermissions: contacts\.read; visibility: all\n$/);

  const created = await stack.crm(['tokens', 'create', '--workspace', boot.workspace.id, '--scopes', 'contacts:read', '--name', 'nightly sync', '--expires-in', '90d', '--json']);
  const token = JSON.parse(created.stdout) as { id: string; name: string; expires_at: string };
  t.equal(token.name, 'nightly sync');
  t.ok(Math.abs(Date.parse(token.expires_at) - (Date.now() + 90 * 86_400_000)) < 60_000, 'expires in 90 days');

  const human = await stack.crm(['tokens', 'create', '--workspace', 'Core', '--scopes', 'contacts:read']);
  t.match(human.stdout, /^Created tok_/);
  t.match(human.stdout, /\nsk_live_[0-9A-Za-z]{43}\n/);
  t.match(human.stdout, /shown once/);

  // A refused value is told by the option that gave it, not by the request field's name; nothing is created.
  // (The password keeps its name: it may come from --password-stdin or CRM_PASSWORD.)
  const refusals: [string[], RegExp][] = [
    [['tokens', 'create', '--workspace', 'Core', '--scopes', 'contacts:read', '--name', ''], /^crm: --name is required\.?\n\nUsage: crm tokens/],
    [['tokens', 'create', '--workspace', 'Core', '--scopes', 'contacts:read', '--name', 'x'.repeat(101)], /^crm: --name .*100/],
    [['users', 'add', '--workspace', 'Core', '--email', 'not-an-address', '--password', TEST_PASSWORD, '--permissions', 'contacts.read', '--visibility', 'all'], /^crm: --email /],
    [['bootstrap', '--org', 'x'.repeat(1_000), '--workspace', 'W', '--email', 'a@b.test', '--password', TEST_PASSWORD], /^crm: --org /],
  ];
  for (const [args, message] of refusals) {
    const res = await stack.crm(args);
    t.equal(res.code, 2, `crm ${args.slice(0, 2).join(' ')} with a refused value exits 2`);
    t.match(res.stderr, message);
  }

  const list = JSON.parse((await stack.crm(['tokens', 'list', '--workspace', 'Core', '--json'])).stdout) as { data: { id: string }[] };
  t.equal(list.data.length, 2);
  const revoke = await stack.crm(['tokens', 'revoke', '--workspace', 'Core', token.id, '--json']);
  t.match(JSON.parse(revoke.stdout), { id: token.id, revoked_at: String });
  const after = JSON.parse((await stack.crm(['tokens', 'list', '--workspace', 'Core', '--json'])).stdout) as { data: { id: string }[] };
  t.equal(after.data.length, 1, 'revoked tokens are hidden');
  const all = JSON.parse((await stack.crm(['tokens', 'list', '--workspace', 'Core', '--all', '--json'])).stdout) as { data: { id: string }[] };
  t.equal(all.data.length, 2, '--all shows them');
});

t.test('crm bootstrap: the next command it prints works, also for a workspace name another organization has too', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  // An installed `crm`, run by name: no npm_package_name (npm test sets one, which its children inherit).
  const byName: NodeJS.ProcessEnv = { ...stack.env, npm_package_name: undefined };
  const boot = (org: string, env = byName) => runCrm(['bootstrap', '--org', org, '--workspace', 'Field Sales', '--email', `owner@${org.toLowerCase()}.test`, '--password', TEST_PASSWORD], env);
  t.equal((await boot('Vandelay')).code, 0);
  const second = await boot('Kramerica');
  t.equal(second.code, 0, second.stderr);
  // Before, `npm run crm -- bootstrap` (the README's quick start) also said `Next: crm tokens create`, which no shell there finds.
  const viaNpm = await boot('Kramerica', { ...stack.env, npm_lifecycle_event: 'crm', npm_package_name: 'workspace-crm' });
  t.match(viaNpm.stdout, /^Next: npm run crm -- tokens create --workspace ws_\w+ /m, 'run through npm, the next step is run through npm');
  const fromOtherProject = await boot('Kramerica', { ...stack.env, npm_lifecycle_event: 'setup', npm_package_name: 'other-app' });
  t.match(fromOtherProject.stdout, /^Next: crm tokens create /m, "from another project's npm script, where npm run crm is no script, by name");
  const next = /^Next: crm (.+)$/m.exec(second.stdout)?.[1];
  t.match(next, /^tokens create --workspace ws_\w+ --scopes contacts:read,contacts:write$/);
  // Before, it said --workspace "Field Sales", which two workspaces are called: refused as ambiguous.
  const res = await stack.crm(next?.split(' ') ?? []);
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /^Created tok_/);
});

t.test('--password-stdin: the password is read from standard input, never from the command line', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const args = ['bootstrap', '--org', 'Pied Piper', '--workspace', 'Compression', '--email', 'richard@piedpiper.test', '--json'];
  const first = await runCrm([...args, '--password-stdin'], stack.env, `${TEST_PASSWORD}\n`);
  t.equal(first.code, 0, first.stderr);
  t.equal((JSON.parse(first.stdout) as { user: { created: boolean } }).user.created, true);
  // The stored password is the line read (its newline aside): the same user checks out with it on the next run.
  const again = await stack.crm(['bootstrap', '--org', 'Pied Piper', '--workspace', 'Storage', '--email', 'richard@piedpiper.test', '--password', TEST_PASSWORD, '--json']);
  t.equal(again.code, 0, again.stderr);
  const wrong = await runCrm(['bootstrap', '--org', 'Pied Piper', '--workspace', 'Video', '--email', 'richard@piedpiper.test', '--password-stdin'], stack.env, 'not the right password\n');
  t.equal(wrong.code, 1, 'a wrong password read from stdin is refused like one given as an option');

  const both = await runCrm([...args, '--password', TEST_PASSWORD, '--password-stdin'], stack.env, `${TEST_PASSWORD}\n`);
  t.equal(both.code, 2);
  t.match(both.stderr, /Give --password or --password-stdin, not both/);
  const empty = await runCrm(['users', 'add', '--workspace', 'Compression', '--email', 'jared@piedpiper.test', '--password-stdin', '--permissions', 'contacts.read', '--visibility', 'all'], stack.env, '');
  t.equal(empty.code, 2);
  t.match(empty.stderr, /--password-stdin read no password/);
  t.equal(empty.stdout, '');
});

t.test('NATS_URL set but nothing answers: the command says so and stops, instead of waiting forever', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  // Bounded by the race from above; from below by the wait itself, which holds on a loaded machine too.
  const started = Date.now();
  const res = await Promise.race([
    // Credentials in the URL (nats.js takes them there) must not be printed with it.
    runCrm(['tokens', 'list', '--workspace', 'x'], { ...stack.env, NATS_URL: 'nats://crm:nats-pass-hunter2@127.0.0.1:1', LOG_LEVEL: 'silent' }),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000)),
  ]);
  t.ok(res, 'the command ended');
  t.equal(res?.code, 1);
  t.match(res?.stderr, /^crm: NATS at nats:\/\/\[redacted\]@127\.0\.0\.1:1 \(NATS_URL\) did not answer in 20 s: start it, or correct NATS_URL\. Nothing was changed\./);
  t.notMatch(res?.stderr, /hunter2/, 'not the password');
  t.ok(Date.now() - started >= COMMAND_NATS_WAIT_MS, `after waiting ${COMMAND_NATS_WAIT_MS / 1000} s, as it says`);
});

t.test('crm events setup-stream with NATS unreachable: says so after the wait (before, it waited forever)', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const res = await Promise.race([
    runCrm(['events', 'setup-stream'], { ...stack.env, NATS_URL: 'nats://127.0.0.1:1', LOG_LEVEL: 'silent' }),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000)),
  ]);
  t.ok(res, 'the command ended');
  t.equal(res?.code, 1);
  t.match(res?.stderr, /^crm: NATS at nats:\/\/127\.0\.0\.1:1 \(NATS_URL\) did not answer in 20 s: start it, or correct NATS_URL\. Nothing was changed\.\n$/);
  t.equal(res?.stdout, '');
});

t.test('a port in use: one line saying so, no stack trace', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const { createServer } = await import('node:net');
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  t.teardown(() => taken.close());
  const address = taken.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const res = await runCrm(['gateway'], { ...stack.envFor('gateway'), PORT: String(port), LOG_LEVEL: 'silent' });
  t.equal(res.code, 1);
  t.match(res.stderr, new RegExp(`^crm: listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${port}\\. Another process listens there`));
  t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
});

t.test('a database that refuses the connection: one line naming the refusal, no stack trace, exit 1', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const { randomBytes } = await import('node:crypto');
  const absent = new URL(stack.env.DATABASE_URL ?? '');
  absent.pathname = `/crm_absent_${randomBytes(5).toString('hex')}`;
  const noRole = new URL(stack.env.DATABASE_URL ?? '');
  noRole.username = `crm_no_role_${randomBytes(5).toString('hex')}`;
  const cases: [string, string[], RegExp][] = [
    [absent.href, ['migrate'], /^crm: Postgres refused the connection: database "crm_absent_\w+" does not exist \(SQLSTATE 3D000\)\. Check DATABASE_URL\.\n$/],
    // Before, the migrator read an absent database as one with every migration pending.
    [absent.href, ['tokens', 'list', '--workspace', 'x'], /^crm: Postgres refused the connection: database "crm_absent_\w+" does not exist \(SQLSTATE 3D000\)/],
    [noRole.href, ['migrate'], /^crm: Postgres refused the connection: role "crm_no_role_\w+" does not exist \(SQLSTATE 28000\)/],
  ];
  for (const [url, args, message] of cases) {
    const res = await runCrm(args, { ...stack.env, DATABASE_URL: url, NATS_URL: '', LOG_LEVEL: 'silent' });
    t.equal(res.code, 1, `crm ${args.join(' ')} exits 1`);
    t.match(res.stderr, message);
    t.notMatch(res.stderr, /\n\s+at /, 'no stack trace');
  }
  // Before, the worker started and joined its queue group, and failed every request it took with a 500.
  const { workerRole } = await import('../../shared/bus/nats-permissions.js');
  const worker = await runCrm(['worker', 'contacts'], { ...stack.envFor(workerRole('contacts')), DATABASE_URL: absent.href, LOG_LEVEL: 'silent' });
  t.equal(worker.code, 1, 'crm worker exits 1');
  t.match(worker.stderr, /^crm: Postgres refused the connection: database "crm_absent_\w+" does not exist \(SQLSTATE 3D000\)\. Check DATABASE_URL\.\n$/);
});

t.test('a database that does not answer: one line naming Postgres and DATABASE_URL (not its password), exit 1', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  // Before: "crm: connect ECONNREFUSED 127.0.0.1:1.", which says neither which service nor which setting.
  for (const args of [['migrate'], ['tokens', 'list', '--workspace', 'x'], ['keys', 'rotate', '--json']]) {
    const res = await runCrm(args, { ...stack.env, DATABASE_URL: 'postgres://crm:db-pass-hunter2@127.0.0.1:1/crm', NATS_URL: '', LOG_LEVEL: 'silent' });
    t.equal(res.code, 1, `crm ${args.join(' ')} exits 1`);
    t.match(res.stderr, /^crm: Postgres at 127\.0\.0\.1:1 \(DATABASE_URL\) is not reachable: connect ECONNREFUSED 127\.0\.0\.1:1\. Start it, or correct DATABASE_URL\. Nothing was changed\.\n$/);
    t.notMatch(res.stderr, /hunter2/);
    t.equal(res.stdout, '');
  }
});

t.test('crm gateway and crm worker explain that they need NATS_URL', async (t) => {
  const { runCrm } = await import('../helpers/process.js');
  const res = await runCrm(['gateway'], { PATH: process.env.PATH, PORT: '0' });
  t.equal(res.code, 1);
  t.match(res.stderr, /NATS_URL/);
});
