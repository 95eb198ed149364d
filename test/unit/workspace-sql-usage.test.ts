import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import t from 'tap';
import { WORKSPACE_TABLES } from '../../shared/db/workspace-tables.js';
import { ROOT } from '../helpers/environment.js';

/**
 * The files allowed to reach workspace tables without a bound workspace, and why. Keyed
 * by file name, so that moving a file between folders keeps its entry.
 */
const CROSS_WORKSPACE_FILES: Record<string, string> = {
  'authenticate-token.ts': 'an API token is found by its hash; the workspace is what it finds out',
  'exchange-code.ts': 'an authorization code is found by its hash, with the grant that names the workspace',
  'refresh-tokens.ts': 'a refresh token is found by its hash, with the grant that names the workspace',
  'revoke-token.ts': 'a refresh token is found by its hash, with the grant that names the workspace',
  'grant-status.ts': 'gateways ask about a grant by id; the grant names the workspace',
  'view-consent.ts': "consent lists the user's memberships and grants in every workspace",
  'user-granted-client.ts': "/oauth/authorize asks whether the signed-in user holds a grant to a client, in any of their workspaces",
  'session-memberships.ts': "the console's workspace switcher lists the user's memberships",
  'temporary-password-holder.ts': "an invitation asks where a user who still holds a temporary password is a member, in every workspace",
  'idempotency.ts': 'maintenance purges expired keys of every workspace',
  'purge-expired.ts': 'maintenance purges clients that no workspace holds a grant for',
  'claim-due-deliveries.ts': 'the delivery loop claims the due webhook deliveries of every workspace',
  'unpublished-events.ts': 'the event relay publishes the outbox of every workspace',
  'attempt-batch.ts': 'webhook attempts of every workspace are stored together, each row naming its own workspace',
};

/**
 * The files allowed raw SQL on a workspace table, and why: statements the builder cannot
 * express, whose workspace is still the bound one.
 */
const RAW_SQL_FILES: Record<string, string> = {
  'event-recorder.ts': 'a new record and its event in one statement (with … insert … select); the event row carries db.workspaceId',
  'unpublished-events.ts': 'the relay reads and empties the outbox of every workspace (crossWorkspaceSql)',
  'attempt-batch.ts': 'attempts stored from unnest(…) arrays in one statement; each row is matched on its own workspace_id (crossWorkspaceSql)',
  'queue-delivery.ts': 'deliveries inserted from unnest(…) arrays in one statement; every row carries db.workspaceId',
  'claim-due-deliveries.ts': 'due deliveries of every workspace claimed in turn by workspace (window functions over a SKIP LOCKED pick); each is sent on its own workspace afterwards (crossWorkspaceSql)',
};

const root = ROOT;
const TABLES = WORKSPACE_TABLES.join('|');
const RAW_SQL_ON_WORKSPACE_TABLE = new RegExp(`\\b(?:from|join|update|into)\\s+"?(?:${TABLES})\\b`, 'i');
const UNBOUND_TYPED_QUERY = new RegExp(`sqlOf\\([^)]*\\)\\s*\\.\\s*(?:selectFrom|updateTable|deleteFrom|insertInto)\\(\\s*['"\`](?:${TABLES})\\b`);
const CROSS_WORKSPACE_CALL = /crossWorkspaceSql\(\s*[\w.]+\s*,\s*(?:'([^']*)'|"([^"]*)"|`([^`]*)`)?/g;
const STRING_LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

/** Code without its comments (a `//` right after `:` is a URL, not a comment). */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:\\])\/\/.*$/gm, '$1');
}

interface Finding {
  problem: string;
  excerpt: string;
}

/** What is wrong with one worker source file's database access. */
function workspaceSqlFindings(fileName: string, source: string): Finding[] {
  const code = withoutComments(source);
  const findings: Finding[] = [];
  if (/\bgetKysely\s*[<(]/.test(code)) findings.push({ problem: 'getKysely bypasses the typed, workspace-bound SQL', excerpt: 'getKysely' });
  const unbound = UNBOUND_TYPED_QUERY.exec(code);
  if (unbound) findings.push({ problem: 'sqlOf() on a workspace table: use the bound builder (call.db)', excerpt: unbound[0] });
  for (const literal of code.match(STRING_LITERAL) ?? []) {
    const raw = RAW_SQL_ON_WORKSPACE_TABLE.exec(literal);
    if (raw && !(fileName in RAW_SQL_FILES)) findings.push({ problem: 'raw SQL on a workspace table: use the bound builder (call.db)', excerpt: raw[0] });
  }
  for (const call of code.matchAll(CROSS_WORKSPACE_CALL)) {
    if (!(fileName in CROSS_WORKSPACE_FILES)) findings.push({ problem: 'crossWorkspaceSql outside the allow-list of this test', excerpt: call[0] });
    const reason = call[1] ?? call[2] ?? call[3] ?? '';
    if (reason.trim().length < 10) findings.push({ problem: 'crossWorkspaceSql without a reason written at the call', excerpt: call[0] });
  }
  return findings;
}

function workerSources(): { path: string; source: string }[] {
  const dir = join(root, 'workers');
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => ({ path: relative(root, join(dir, path)), source: readFileSync(join(dir, path), 'utf8') }));
}

t.test('worker code reaches workspace tables only through the bound builder', async (t) => {
  const sources = workerSources();
  t.ok(sources.length > 50, 'the worker sources were found');
  for (const { path, source } of sources) t.same(workspaceSqlFindings(basename(path), source), [], path);
});

t.test('every allow-listed file still needs its escape hatch', async (t) => {
  const using = new Set(workerSources().filter(({ source }) => /crossWorkspaceSql\(/.test(withoutComments(source))).map(({ path }) => basename(path)));
  for (const name of Object.keys(CROSS_WORKSPACE_FILES)) t.ok(using.has(name), `${name} uses crossWorkspaceSql (otherwise drop it from the list)`);
});

t.test('the scan catches the unscoped forms', async (t) => {
  const problems = (source: string, fileName = 'some-handler.ts') => workspaceSqlFindings(fileName, source).map((f) => f.problem);
  t.match(problems("await sqlOf(em).selectFrom('contacts').selectAll().execute();"), [/sqlOf\(\) on a workspace table/]);
  t.match(problems("await sqlOf(tx)\n  .updateTable('deals')"), [/sqlOf\(\) on a workspace table/]);
  t.match(problems('await em.execute(`select * from deals where id = ?`, [id]);'), [/raw SQL/]);
  t.match(problems("sql`delete from idempotency_keys where created_at < now()`"), [/raw SQL/]);
  t.match(problems("await em.getKysely().selectFrom('users')"), [/getKysely/]);
  t.match(problems("crossWorkspaceSql(em, 'because I can say why').selectFrom('contacts')"), [/outside the allow-list/]);
  t.match(problems("crossWorkspaceSql(em, '').selectFrom('api_tokens')", 'authenticate-token.ts'), [/without a reason/]);
  t.same(problems("await sqlOf(em).selectFrom('users').where('id', '=', id)"), [], 'global tables are fine');
  t.same(problems("// select * from contacts\nawait db.selectFrom('contacts')"), [], 'comments and bound queries are fine');
  t.same(problems("const url = 'https://example.com'; sql`delete from sign_in_attempts`"), [], 'raw SQL on global tables is fine');
});
