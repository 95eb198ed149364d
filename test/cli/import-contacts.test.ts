import { execFile } from 'node:child_process';
import { link, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import t from 'tap';
import { ROWS_NOT_IMPORTED_EXIT_CODE, type ImportSummary } from '../../cli/commands/import.js';
import { client } from '../helpers/http.js';
import { CrmProcess, runCrm } from '../helpers/process.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * `crm import contacts` against the stack as production runs it: the command sends its
 * batches over NATS to a separate contacts worker process, on real Postgres.
 */
const stack = await useStack(t);
const dir = await mkdtemp(path.join(tmpdir(), 'crm-import-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const a = await stack.bootstrap({ defaultCountry: 'US' });
const b = await stack.bootstrap({ defaultCountry: 'US' });
const adminA = client(stack.baseUrl, await stack.token(a.workspace.id, ['contacts:write', 'schema:write']));
for (const field of [
  { object_type: 'contact', key: 'score', label: 'Score', type: 'number' },
  { object_type: 'contact', key: 'lead_source', label: 'Lead source', type: 'select', options: ['web', 'referral'] },
  { object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' },
]) {
  const res = await adminA.post('/v1/custom-fields', field);
  if (res.status !== 201) throw new Error(`custom field: ${JSON.stringify(res.body)}`);
}
// Workspace B gets the same fields, so the same file fits both.
const adminB = client(stack.baseUrl, await stack.token(b.workspace.id, ['contacts:write', 'schema:write']));
for (const key of ['score', 'lead_source', 'vip']) {
  const def = key === 'score' ? { type: 'number' } : key === 'vip' ? { type: 'boolean' } : { type: 'select', options: ['web', 'referral'] };
  await adminB.post('/v1/custom-fields', { object_type: 'contact', key, label: key, ...def });
}

const HEADER = ['first_name', 'last_name', 'email', 'phone', 'status', 'owner_id', 'custom.score', 'custom.lead_source', 'custom.vip'];
const phoneOf = (i: number) => `(212) ${400 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
const e164Of = (i: number) => `+1212${400 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`;

/** A file of `rows` data rows with bad rows at known lines, and what the import must report for them. */
function contactsCsv(rows: number, ownerId: string) {
  const lines: string[] = [HEADER.join(',')];
  const expected: { line: number; field: string; reason: string }[] = [];
  let line = 1;
  let duplicates = 0;
  for (let i = 0; i < rows; i++) {
    line++;
    const row: Record<string, string> = {
      first_name: `First${i}`,
      last_name: `Last${i}`,
      email: `Person${i}@Example.TEST`,
      phone: phoneOf(i),
      status: i % 10 === 3 ? 'archived' : '',
      owner_id: i % 100 === 1 ? ownerId : '',
      'custom.score': String(i),
      'custom.lead_source': i % 2 ? 'web' : 'referral',
      'custom.vip': i % 2 ? 'TRUE' : 'false',
    };
    let extraField = false;
    const bad = (field: string, reason: string) => expected.push({ line, field, reason });
    const repeat = (of: number, firstLine: number, written = phoneOf(of)) => {
      row.phone = written;
      bad('phone', `phone ${e164Of(of)} repeats line ${firstLine}.`);
      duplicates++;
    };
    switch (line) {
      case 10:
        row.first_name = '';
        bad('first_name', 'first_name: is required and must not be empty');
        break;
      case 20:
        row.phone = '12345';
        bad('phone', 'phone: "12345" is not a valid phone number.');
        break;
      case 30:
        repeat(3, 5);
        break;
      case 40:
        repeat(4, 6, '+1 212-400-0004');
        break;
      case 50:
        row.status = 'pending';
        bad('status', 'status: must be one of: active, archived');
        break;
      case 60:
        row['custom.score'] = 'many';
        bad('custom_fields.score', 'custom_fields.score: must be a number such as 1500 or -12.5 (digits, a dot before decimals, no thousands separators or units).');
        break;
      case 70:
        row.email = 'not-an-email';
        bad('email', 'email: must be an e-mail address');
        break;
      case 80:
        extraField = true;
        bad('', `The row has ${HEADER.length + 1} fields where the header has ${HEADER.length}.`);
        break;
      case 90:
        row['custom.lead_source'] = 'billboard';
        bad('custom_fields.lead_source', 'custom_fields.lead_source: must be one of: web, referral.');
        break;
      case 100:
        row.owner_id = 'usr_nobody';
        bad('owner_id', 'No such workspace member: usr_nobody.');
        break;
      case 1200:
        // In another batch (of 500) than line 7.
        repeat(5, 7);
        break;
    }
    // A quoted cell over two lines is reported at the line it starts on, and the lines after it still count.
    if (i === rows - 2) {
      row.last_name = '"Two\nLines"';
      bad('last_name', 'last_name: must not contain control characters');
    }
    if (i === rows - 1) {
      row.first_name = '';
      bad('first_name', 'first_name: is required and must not be empty');
    }
    lines.push(HEADER.map((h) => row[h]).join(',') + (extraField ? ',x' : ''));
    if (i === rows - 2) line++;
  }
  return { text: `${lines.join('\n')}\n`, expected, duplicates, invalid: expected.length - duplicates };
}

const ROWS = 3000;
const csv = contactsCsv(ROWS, a.user.id);
const file = path.join(dir, 'contacts.csv');
await writeFile(file, csv.text);
// The same rows for workspace B, whose rows name B's administrator as owner.
const fileB = path.join(dir, 'contacts-b.csv');
await writeFile(fileB, contactsCsv(ROWS, b.user.id).text);
// A contact the workspace has before the import: its row is skipped, not reported.
const existingPhone = phoneOf(2600);
const existing = await adminA.post<{ id: string }>('/v1/contacts', { first_name: 'Already', phone: existingPhone });

const countIn = async (workspaceId: string) =>
  Number((await stack.db.query<{ n: string }>('select count(*) as n from contacts where workspace_id = $1', [workspaceId]))[0]?.n);
const errorsIn = async (errorsFile: string) => (parse(await readFile(errorsFile, 'utf8'), { columns: true }) as { line: string; field: string; reason: string }[]).map((r) => ({ ...r, line: Number(r.line) }));
const importInto = async (workspaceId: string, extra: string[] = [], csvFile = file) => {
  const res = await stack.crm(['import', 'contacts', csvFile, '--workspace', workspaceId, '--batch-size', '500', '--json', ...extra]);
  if (res.code !== 0 && res.code !== ROWS_NOT_IMPORTED_EXIT_CODE) throw new Error(`import failed (${res.code}): ${res.stderr}`);
  const summary = JSON.parse(res.stdout) as ImportSummary;
  // 3 exactly when rows went to the errors file; rows already present do not count.
  const listed = summary.invalid + summary.duplicates;
  if (res.code !== (listed > 0 ? ROWS_NOT_IMPORTED_EXIT_CODE : 0)) throw new Error(`exit ${res.code} with ${listed} rows in the errors file`);
  return summary;
};

const firstRun = await importInto(a.workspace.id);
const createdFirst = ROWS - csv.invalid - csv.duplicates - 1;

t.test('imports every valid row once, counts every row, and lists the bad ones by line', async (t) => {
  t.match(firstRun, { object: 'contact_import', workspace_id: a.workspace.id, rows: ROWS, created: createdFirst, skipped: 1, duplicates: csv.duplicates, invalid: csv.invalid });
  t.equal(firstRun.errors_file, path.join(dir, 'contacts.errors.csv'), 'the errors file is next to the input by default');
  t.ok(firstRun.rows_per_second > 0);
  t.same(await errorsIn(firstRun.errors_file), csv.expected, 'line numbers and reasons, in file order');
  t.equal(await countIn(a.workspace.id), createdFirst + 1);
  t.equal(await countIn(b.workspace.id), 0, 'the other workspace is untouched');
});

t.test('rows are stored like POST /v1/contacts stores them', async (t) => {
  const rows = await stack.db.query<Record<string, unknown>>(
    'select first_name, last_name, email, phone, status, owner_id, custom_fields from contacts where workspace_id = $1 and phone = any($2) order by phone',
    [a.workspace.id, [e164Of(0), e164Of(1), e164Of(3)]],
  );
  t.same(rows, [
    { first_name: 'First0', last_name: 'Last0', email: 'person0@example.test', phone: e164Of(0), status: 'active', owner_id: null, custom_fields: { score: 0, lead_source: 'referral', vip: false } },
    { first_name: 'First1', last_name: 'Last1', email: 'person1@example.test', phone: e164Of(1), status: 'active', owner_id: a.user.id, custom_fields: { score: 1, lead_source: 'web', vip: true } },
    { first_name: 'First3', last_name: 'Last3', email: 'person3@example.test', phone: e164Of(3), status: 'archived', owner_id: null, custom_fields: { score: 3, lead_source: 'web', vip: true } },
  ]);
  const kept = await stack.db.query<{ id: string; first_name: string }>('select id, first_name from contacts where workspace_id = $1 and phone = $2', [a.workspace.id, e164Of(2600)]);
  t.same(kept, [{ id: existing.body.id, first_name: 'Already' }], 'a contact already there is left as it was');
  const listed = await client(stack.baseUrl, await stack.token(a.workspace.id, ['contacts:read'])).get<{ data: { first_name: string }[] }>('/v1/contacts?limit=3');
  t.same(listed.body.data.map((c) => c.first_name), ['Already', 'First0', 'First1'], 'the list keeps the file order');
});

t.test('running the same file again creates nothing and reports the same rows', async (t) => {
  const again = await importInto(a.workspace.id);
  t.match(again, { rows: ROWS, created: 0, skipped: createdFirst + 1, duplicates: csv.duplicates, invalid: csv.invalid });
  t.same(await errorsIn(again.errors_file), csv.expected);
  t.equal(await countIn(a.workspace.id), createdFirst + 1);
  const twice = await stack.db.query('select phone from contacts group by workspace_id, phone having count(*) > 1');
  t.same(twice, [], 'no phone twice in a workspace');
});

t.test('two imports of one file at once: each row written once, into its own workspace only', async (t) => {
  const errorsX = path.join(dir, 'x.errors.csv');
  const errorsY = path.join(dir, 'y.errors.csv');
  const [x, y] = await Promise.all([importInto(b.workspace.id, ['--errors', errorsX], fileB), importInto(b.workspace.id, ['--errors', errorsY], fileB)]);
  const unique = createdFirst + 1;
  t.equal(x.created + y.created, unique, 'between them, every valid row created once');
  t.equal(x.created + x.skipped, unique);
  t.equal(y.created + y.skipped, unique);
  t.match(x, { duplicates: csv.duplicates, invalid: csv.invalid });
  t.same(await errorsIn(errorsX), csv.expected, 'the report does not depend on timing');
  t.same(await errorsIn(errorsY), csv.expected);
  t.equal(await countIn(b.workspace.id), unique);
  t.equal(await countIn(a.workspace.id), createdFirst + 1, 'workspace A is untouched');
  const ownersB = await stack.db.query<{ owner_id: string }>('select distinct owner_id from contacts where workspace_id = $1 and owner_id is not null', [b.workspace.id]);
  t.same(ownersB, [{ owner_id: b.user.id }]);
});

t.test('a column the import would not store stops it before anything is written (exit 2)', async (t) => {
  const c = await stack.bootstrap({ defaultCountry: 'US' });
  const cases: [string, RegExp][] = [
    ['first_name,phone,nickname\nAda,(212) 555-0100,Countess\n', /unknown column "nickname"/],
    ['first_name,phone,custom.score\nAda,(212) 555-0100,3\n', /"custom\.score" names no contact custom field/],
    ['first_name,email\nAda,ada@example.test\n', /no phone column/],
    ['first_name,phone,Phone\nAda,1,2\n', /appears twice/],
    ['first_name,,phone\nAda,,(212) 555-0100\n', /column 2 of the header has no name: name it, or remove the column/],
    ['', /is empty/],
  ];
  for (const [text, message] of cases) {
    const bad = path.join(dir, 'bad.csv');
    await writeFile(bad, text);
    const res = await stack.crm(['import', 'contacts', bad, '--workspace', c.workspace.id]);
    t.equal(res.code, 2, `${JSON.stringify(text.split('\n')[0])}: exit 2`);
    t.match(res.stderr, message);
    t.match(res.stderr, /Nothing was imported/);
    t.equal(res.stdout, '');
  }
  t.equal(await countIn(c.workspace.id), 0, 'nothing stored');
  await t.rejects(stat(path.join(dir, 'bad.errors.csv')), 'no errors file either');
});

t.test('a missing file, workspace or worker is a clear error', async (t) => {
  const missing = await stack.crm(['import', 'contacts', path.join(dir, 'nope.csv'), '--workspace', a.workspace.id]);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /No such file: .*nope\.csv/);
  const nowhere = await stack.crm(['import', 'contacts', file, '--workspace', 'No Such Workspace']);
  t.equal(nowhere.code, 1);
  t.match(nowhere.stderr, /No such workspace/);
  const usage = await stack.crm(['import', 'contacts', file, '--workspace', a.workspace.id, '--batch-size', '5000']);
  t.equal(usage.code, 2);
  t.match(usage.stderr, /--batch-size must be/);
  const noWorker = await runCrm(['import', 'contacts', file, '--workspace', a.workspace.id], { ...stack.env, BUS_NAMESPACE: 'nobody_listens' });
  t.equal(noWorker.code, 1);
  t.match(noWorker.stderr, /crm worker contacts/);
});

t.test('a stray quote stops the import after the rows before it; fixed, a re-run adds the rest', async (t) => {
  const e = await stack.bootstrap({ defaultCountry: 'US' });
  const rows = Array.from({ length: 1500 }, (_, i) => `Quote${i},${phoneOf(20_000 + i)}`);
  const broken = path.join(dir, 'broken.csv');
  await writeFile(broken, ['first_name,phone', ...rows.slice(0, 1200), 'Bad,"(212) 555"x', ...rows.slice(1200)].join('\n'));
  const res = await stack.crm(['import', 'contacts', broken, '--workspace', e.workspace.id, '--json']);
  t.equal(res.code, 1);
  t.match(res.stderr, /The import stopped: .*broken\.csv: the row starting at line 1202 is not valid CSV: Invalid Closing Quote: got "x" instead of delimiter/);
  t.match(res.stderr, /The 1,200 rows before that are done: 1,200 created.*run the same command again/);
  // A script reading --json learns what was done, and that the file was not all read.
  const stopped = JSON.parse(res.stdout) as ImportSummary;
  t.match(stopped, { object: 'contact_import', outcome: 'failed', rows: 1200, created: 1200, error: /line 1202 is not valid CSV/ });
  t.equal(await countIn(e.workspace.id), 1200);
  await writeFile(broken, ['first_name,phone', ...rows].join('\n'));
  const fixed = JSON.parse((await stack.crm(['import', 'contacts', broken, '--workspace', e.workspace.id, '--json'])).stdout) as ImportSummary;
  t.match(fixed, { outcome: 'completed', rows: 1500, created: 300, skipped: 1200 });
  t.notOk('error' in fixed, 'a completed import has no error');
  t.equal(await countIn(e.workspace.id), 1500);
});

t.test('without NATS_URL the command writes through its own contacts worker', async (t) => {
  const d = await stack.bootstrap({ defaultCountry: 'GB' });
  const small = path.join(dir, 'small.csv');
  // The last row names a member of another workspace as its owner.
  await writeFile(small, `Phone,First_Name,owner_id\n020 7946 0958,Grace,\n+44 20 7946 0958,Again,\n020 7946 0000,Other,${a.user.id}\n`);
  const env = { ...stack.env };
  delete env.NATS_URL;
  const res = await runCrm(['import', 'contacts', small, '--workspace', d.workspace.id], env);
  // Before, exit 0: a script's `crm import … && next-step` went on with rows left out.
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, 'rows in the errors file: exit 3');
  t.match(res.stdout, /Imported 3 rows .*\n\s+1 created\n\s+0 skipped.*\n\s+1 duplicates.*\n\s+1 invalid/);
  t.match(res.stdout, /listed in .*small\.errors\.csv/);
  t.notMatch(res.stderr, /rows\/s/, 'no progress lines for a short import when stderr is not a terminal');
  t.same(await errorsIn(path.join(dir, 'small.errors.csv')), [
    { line: 3, field: 'phone', reason: 'phone +442079460958 repeats line 2.' },
    { line: 4, field: 'owner_id', reason: `No such workspace member: ${a.user.id}.` },
  ]);
  t.same(await stack.db.query('select first_name, phone from contacts where workspace_id = $1', [d.workspace.id]), [{ first_name: 'Grace', phone: '+442079460958' }]);
});

t.test('a cell with NUL, a cell not UTF-8 and long reasons are each the problem of their row; lines after a CRLF in quotes stay right', async (t) => {
  const f = await stack.bootstrap({ defaultCountry: 'US' });
  const admin = client(stack.baseUrl, await stack.token(f.workspace.id, ['contacts:write', 'schema:write']));
  // About 3 KB of options in every reason that lists them: 500 such rows were a reply over 1 MiB.
  const options = Array.from({ length: 150 }, (_, i) => `option-number-${String(i).padStart(4, '0')}`);
  const res = await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options });
  t.equal(res.status, 201);
  const rows = Array.from({ length: 1000 }, (_, i) => `Row${i},${phoneOf(30_000 + i)},${i % 2 ? 'nope' : options[0]}`);
  const text = Buffer.concat([
    Buffer.from(['first_name,phone,custom.tier', `"Two\r\nLines",${phoneOf(31_000)},`, `Nul\0l,${phoneOf(31_001)},`, 'Caf'].join('\r\n')),
    Buffer.from([0xe9]),
    Buffer.from([`,${phoneOf(31_002)},`, ...rows, ''].join('\r\n')),
  ]);
  const mixed = path.join(dir, 'mixed.csv');
  await writeFile(mixed, text);
  const summary = JSON.parse((await stack.crm(['import', 'contacts', mixed, '--workspace', f.workspace.id, '--batch-size', '1000', '--json'])).stdout) as ImportSummary;
  t.match(summary, { rows: 1003, created: 500, invalid: 503 });
  const errors = await errorsIn(summary.errors_file);
  t.same(errors.slice(0, 3), [
    { line: 2, field: 'first_name', reason: 'first_name: must not contain control characters' },
    { line: 4, field: 'first_name', reason: 'first_name: must not contain NUL characters.' },
    { line: 5, field: 'first_name', reason: 'first_name: not valid UTF-8 text (save the file as UTF-8).' },
  ]);
  const tier = errors[3];
  t.equal(tier?.line, 7, 'the first bad tier is on line 7');
  t.match(tier?.reason, /^custom_fields\.tier: must be one of: option-number-0000, .*…$/);
  t.ok(Buffer.byteLength(tier?.reason ?? '') <= 400, 'the reason is cut');
  t.equal(await countIn(f.workspace.id), 500, 'every row reported created exists');
});

t.test('SIGINT stops the reading, and the rows sent are written and reported (exit 130)', async (t) => {
  const g = await stack.bootstrap({ defaultCountry: 'US' });
  const big = path.join(dir, 'big.csv');
  await writeFile(big, ['first_name,phone', ...Array.from({ length: 100_000 }, (_, i) => `Big${i},${phoneOf(40_000 + i)}`), ''].join('\n'));
  const run = new CrmProcess('import', ['import', 'contacts', big, '--workspace', g.workspace.id, '--batch-size', '100', '--json'], stack.env);
  while ((await countIn(g.workspace.id)) === 0 && run.running) await new Promise((resolve) => setTimeout(resolve, 20));
  const code = await run.stop('SIGINT');
  const output = run.text();
  t.equal(code, 130, output);
  const done = /The ([\d,]+) rows read before that are done: ([\d,]+) created/.exec(output);
  t.ok(done, output);
  const created = Number(done?.[2]?.replace(/,/g, ''));
  t.ok(created > 0 && created < 100_000, 'stopped part-way');
  t.equal(Number(done?.[1]?.replace(/,/g, '')), created);
  t.equal(await countIn(g.workspace.id), created, 'what it reports is what is stored');
  t.match(JSON.parse(run.stdoutText()), { outcome: 'interrupted', rows: created, created, error: /interrupted/ }, '--json prints what was done');
  t.equal((await errorsIn(path.join(dir, 'big.errors.csv'))).length, 0, 'the errors file is whole (its header)');
});

t.test('cells are counted at their size in JSON: rows full of control characters are refused one by one, not the whole import', async (t) => {
  const h = await stack.bootstrap({ defaultCountry: 'US' });
  const admin = client(stack.baseUrl, await stack.token(h.workspace.id, ['contacts:write', 'schema:write']));
  const keys = Array.from({ length: 40 }, (_, i) => `note_${i}`);
  for (const key of keys) t.equal((await admin.post('/v1/custom-fields', { object_type: 'contact', key, label: key, type: 'text' })).status, 201);
  // 3,900 characters a cell, six bytes each in JSON: 200 such rows were a batch over 1 MiB, and 46 such cells one row over it.
  const control = '\x01'.repeat(3900);
  const header = ['first_name', 'last_name', 'phone', ...keys.map((k) => `custom.${k}`)];
  const empty = keys.map(() => '');
  const lines = [
    header.join(','),
    ['Huge', control, phoneOf(50_000), ...keys.map(() => control)].join(','),
    ...Array.from({ length: 200 }, (_, i) => [`Ctl${i}`, control, phoneOf(50_001 + i), ...empty].join(',')),
    ['Fine', 'Row', phoneOf(50_999), ...empty].join(','),
  ];
  const controlled = path.join(dir, 'control.csv');
  await writeFile(controlled, `${lines.join('\n')}\n`);
  const res = await stack.crm(['import', 'contacts', controlled, '--workspace', h.workspace.id, '--batch-size', '1000', '--json']);
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  const summary = JSON.parse(res.stdout) as ImportSummary;
  t.match(summary, { rows: 202, created: 1, invalid: 201 });
  const errors = await errorsIn(summary.errors_file);
  t.same(errors[0], { line: 2, field: '', reason: 'The row takes more than 512 KiB: no contact is that large.' });
  t.same(errors[1], { line: 3, field: 'last_name', reason: 'last_name: must be at most 100 characters' });
  t.equal(errors.length, 201);
  t.same(await stack.db.query('select first_name from contacts where workspace_id = $1', [h.workspace.id]), [{ first_name: 'Fine' }]);
});

t.test('spaces around a cell are not part of its value, in the status and owner_id columns too', async (t) => {
  const k = await stack.bootstrap({ defaultCountry: 'US' });
  const spaced = path.join(dir, 'spaced.csv');
  await writeFile(spaced, `first_name, phone, status, owner_id\nAda, ${phoneOf(60_000)}, archived , ${k.user.id} \n`);
  const res = await stack.crm(['import', 'contacts', spaced, '--workspace', k.workspace.id, '--json']);
  t.equal(res.code, 0, res.stderr);
  t.match(JSON.parse(res.stdout), { rows: 1, created: 1, invalid: 0 });
  t.same(await stack.db.query('select first_name, phone, status, owner_id from contacts where workspace_id = $1', [k.workspace.id]), [
    { first_name: 'Ada', phone: e164Of(60_000), status: 'archived', owner_id: k.user.id },
  ]);
});

t.test('empty lines and rows of empty cells (as spreadsheets export them) are skipped; the lines after them keep their numbers', async (t) => {
  const m = await stack.bootstrap({ defaultCountry: 'US' });
  const blank = path.join(dir, 'blank.csv');
  await writeFile(blank, `\uFEFFfirst_name,phone\r\n,\r\nAda,${phoneOf(61_000)}\r\n\r\n , \r\n"",""\r\nBad,12345\r\n,,\r\n`);
  const res = await stack.crm(['import', 'contacts', blank, '--workspace', m.workspace.id, '--json']);
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  t.match(JSON.parse(res.stdout), { rows: 2, created: 1, skipped: 0, duplicates: 0, invalid: 1 });
  t.same(await errorsIn(path.join(dir, 'blank.errors.csv')), [{ line: 7, field: 'phone', reason: 'phone: "12345" is not a valid phone number.' }]);
});

t.test('a stray quote is reported at the line its row starts on, also after a quoted cell holding a CRLF', async (t) => {
  const n = await stack.bootstrap({ defaultCountry: 'US' });
  const crlf = path.join(dir, 'crlf-quote.csv');
  // Line 2 and 3 are one row, line 4 is empty: the stray quote's row is line 5 (csv-parse said 6).
  await writeFile(crlf, `first_name,phone\r\n"Two\r\nLines",${phoneOf(62_000)}\r\n\r\nBad,"12"x\r\nAfter,${phoneOf(62_001)}\r\n`);
  const res = await stack.crm(['import', 'contacts', crlf, '--workspace', n.workspace.id]);
  t.equal(res.code, 1);
  t.match(res.stderr, /crlf-quote\.csv: the row starting at line 5 is not valid CSV: Invalid Closing Quote: got "x" instead of delimiter/);
  t.notMatch(res.stderr, /at line 6/);
  t.match(res.stderr, /The 1 rows before that are done: 0 created, 0 skipped, 0 duplicates and 1 invalid/, 'a name over two lines is refused');
  const unclosed = path.join(dir, 'unclosed.csv');
  await writeFile(unclosed, `first_name,phone\nAda,${phoneOf(62_002)}\n"Open,${phoneOf(62_003)}\nMore,${phoneOf(62_004)}\n`);
  const open = await stack.crm(['import', 'contacts', unclosed, '--workspace', n.workspace.id]);
  t.match(open.stderr, /unclosed\.csv: the row starting at line 3 is not valid CSV: Quote Not Closed/, 'the row where the quote opens, not the end of the file');
  t.equal(await countIn(n.workspace.id), 1, 'the row before it is imported');
});

t.test('an errors file that is the input under another name (a link) is refused before the input is emptied', async (t) => {
  const p = await stack.bootstrap({ defaultCountry: 'US' });
  const input = path.join(dir, 'linked.csv');
  const text = `first_name,phone\nAda,${phoneOf(63_000)}\n`;
  await writeFile(input, text);
  await symlink(input, path.join(dir, 'linked-symlink.csv'));
  await link(input, path.join(dir, 'linked-hardlink.csv'));
  for (const other of ['linked-symlink.csv', 'linked-hardlink.csv']) {
    const res = await stack.crm(['import', 'contacts', input, '--workspace', p.workspace.id, '--errors', path.join(dir, other)]);
    t.equal(res.code, 2, other);
    t.match(res.stderr, /The errors file cannot be the file being imported/);
    t.equal(await readFile(input, 'utf8'), text, 'the input is as it was');
  }
  t.equal(await countIn(p.workspace.id), 0);
});

t.test('a file without the column of a required custom field stops before anything is written (exit 2), not with every row refused', async (t) => {
  const q = await stack.bootstrap({ defaultCountry: 'US' });
  const admin = client(stack.baseUrl, await stack.token(q.workspace.id, ['contacts:write', 'schema:write']));
  const res = await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'region', label: 'Region', type: 'text', required: true });
  t.equal(res.status, 201);
  const without = path.join(dir, 'no-region.csv');
  await writeFile(without, `first_name,phone\nAda,${phoneOf(64_000)}\n`);
  const refused = await stack.crm(['import', 'contacts', without, '--workspace', q.workspace.id]);
  t.equal(refused.code, 2);
  t.match(refused.stderr, /the header has no "custom\.region" column, which every contact of the workspace must have/);
  t.match(refused.stderr, /Nothing was imported/);
  await t.rejects(stat(path.join(dir, 'no-region.errors.csv')), 'no errors file');
  const withIt = path.join(dir, 'region.csv');
  await writeFile(withIt, `first_name,phone,custom.region\nAda,${phoneOf(64_000)},North\nBob,${phoneOf(64_001)},\n`);
  const done = await stack.crm(['import', 'contacts', withIt, '--workspace', q.workspace.id, '--json']);
  t.equal(done.code, ROWS_NOT_IMPORTED_EXIT_CODE, done.stderr);
  t.match(JSON.parse(done.stdout), { rows: 2, created: 1, invalid: 1 });
  t.same(await errorsIn(path.join(dir, 'region.errors.csv')), [{ line: 3, field: 'custom_fields.region', reason: 'custom_fields.region: the field "region" is required.' }]);
});

t.test('a pipe is imported like a file (e.g. <(gunzip -c …)); a directory is named as one, not as missing', async (t) => {
  const r = await stack.bootstrap({ defaultCountry: 'US' });
  const fifo = path.join(dir, 'piped.csv');
  await promisify(execFile)('mkfifo', [fifo]);
  // A pipe has no folder of its own for the default errors file (<(…) is /dev/fd/63): refused before it is read.
  const noErrors = await stack.crm(['import', 'contacts', fifo, '--workspace', r.workspace.id]);
  t.equal(noErrors.code, 2);
  t.match(noErrors.stderr, /piped\.csv is not a regular file \(a pipe\?\): give --errors FILE/);
  const importing = stack.crm(['import', 'contacts', fifo, '--workspace', r.workspace.id, '--errors', path.join(dir, 'piped.errors.csv'), '--json']);
  // Opening a pipe for writing waits for its reader: the command's.
  await writeFile(fifo, `first_name,phone\nAda,${phoneOf(65_000)}\nBad,12345\n`);
  const res = await importing;
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  t.match(JSON.parse(res.stdout), { rows: 2, created: 1, invalid: 1 });
  t.same(await errorsIn(path.join(dir, 'piped.errors.csv')), [{ line: 3, field: 'phone', reason: 'phone: "12345" is not a valid phone number.' }]);

  const folder = path.join(dir, 'a-folder');
  await mkdir(folder);
  const refused = await stack.crm(['import', 'contacts', folder, '--workspace', r.workspace.id]);
  t.equal(refused.code, 2);
  t.match(refused.stderr, /a-folder is a directory: give the CSV file to import\./);
  t.notMatch(refused.stderr, /No such file/);
  t.equal(await countIn(r.workspace.id), 1);
});

t.test('an errors file that cannot be written is named as the problem, before any row is sent (exit 2)', async (t) => {
  const u = await stack.bootstrap({ defaultCountry: 'US' });
  const input = path.join(dir, 'fine.csv');
  await writeFile(input, `first_name,phone\nAda,${phoneOf(66_000)}\n`);
  const report = path.join(dir, 'no-such-folder', 'report.csv');
  const res = await stack.crm(['import', 'contacts', input, '--workspace', u.workspace.id, '--errors', report]);
  t.equal(res.code, 2, res.stderr);
  t.match(res.stderr, /Cannot write the errors file .*no-such-folder\/report\.csv: its folder does not exist\. Choose another with --errors FILE\. Nothing was imported\./);
  t.equal(await countIn(u.workspace.id), 0);
});
