import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import t from 'tap';
import { ROWS_NOT_IMPORTED_EXIT_CODE, type ImportSummary } from '../../cli/commands/import.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * `crm import contacts` reports every problem of a refused row, each naming its field, so
 * that a spreadsheet is fixed in one pass; against the stack as production runs it.
 */
const stack = await useStack(t);
const dir = await mkdtemp(path.join(tmpdir(), 'crm-import-problems-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const errorsIn = async (errorsFile: string) =>
  (parse(await readFile(errorsFile, 'utf8'), { columns: true }) as { line: string; field: string; reason: string }[]).map((r) => ({ ...r, line: Number(r.line) }));

const w = await stack.bootstrap({ defaultCountry: 'US' });
const admin = client(stack.baseUrl, await stack.token(w.workspace.id, ['contacts:write', 'schema:write']));
for (const field of [
  { object_type: 'contact', key: 'score', label: 'Score', type: 'number' },
  { object_type: 'contact', key: 'tier', label: 'Tier', type: 'select', options: ['gold', 'silver'] },
  { object_type: 'contact', key: 'since', label: 'Since', type: 'date' },
  { object_type: 'contact', key: 'region', label: 'Region', type: 'text', required: true },
]) {
  const res = await admin.post('/v1/custom-fields', field);
  if (res.status !== 201) throw new Error(`custom field: ${JSON.stringify(res.body)}`);
}

t.test('a row refused for several problems lists each of them, one line per field, in field order', async (t) => {
  const file = path.join(dir, 'several.csv');
  await writeFile(
    file,
    [
      'custom.score,first_name,email,phone,status,owner_id,custom.tier,custom.since,custom.region',
      // Every field wrong: the schema's own (first_name, email, status) and what is checked after it (phone, owner, custom fields).
      'many,,not-an-email,12345,pending,usr_nobody,bronze,2026-02-30,',
      // One problem: as before.
      '3,Bob,,12345,,,,,North',
      // Valid.
      '4,Cy,cy@example.test,(212) 400-0001,,,gold,2026-01-31,South',
      // The schema takes everything; the phone and one custom field are still wrong.
      '5,Di,,12345,,,silver,31/01/2026,East',
    ].join('\n') + '\n',
  );
  const res = await stack.crm(['import', 'contacts', file, '--workspace', w.workspace.id, '--json']);
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  t.match(JSON.parse(res.stdout) as ImportSummary, { rows: 4, created: 1, invalid: 3, duplicates: 0 }, 'a row with several problems counts once');
  t.same(await errorsIn(path.join(dir, 'several.errors.csv')), [
    { line: 2, field: 'first_name', reason: 'first_name: is required and must not be empty' },
    { line: 2, field: 'email', reason: 'email: must be an e-mail address' },
    { line: 2, field: 'phone', reason: 'phone: "12345" is not a valid phone number.' },
    { line: 2, field: 'status', reason: 'status: must be one of: active, archived' },
    { line: 2, field: 'owner_id', reason: 'No such workspace member: usr_nobody.' },
    { line: 2, field: 'custom_fields.score', reason: 'custom_fields.score: must be a number such as 1500 or -12.5 (digits, a dot before decimals, no thousands separators or units).' },
    { line: 2, field: 'custom_fields.tier', reason: 'custom_fields.tier: must be one of: gold, silver.' },
    { line: 2, field: 'custom_fields.since', reason: 'custom_fields.since: must be a real calendar date, in the years 0001 to 9999.' },
    { line: 2, field: 'custom_fields.region', reason: 'custom_fields.region: the field "region" is required.' },
    { line: 3, field: 'phone', reason: 'phone: "12345" is not a valid phone number.' },
    { line: 5, field: 'phone', reason: 'phone: "12345" is not a valid phone number.' },
    { line: 5, field: 'custom_fields.since', reason: 'custom_fields.since: must be a date written YYYY-MM-DD.' },
  ]);
  t.same(await stack.db.query('select first_name, custom_fields from contacts where workspace_id = $1', [w.workspace.id]), [
    { first_name: 'Cy', custom_fields: { score: 4, tier: 'gold', since: '2026-01-31', region: 'South' } },
  ]);
});

t.test('a row with more problems than its share of the batch reply lists as many as fit and says how many more there are', async (t) => {
  const x = await stack.bootstrap({ defaultCountry: 'US' });
  const adminX = client(stack.baseUrl, await stack.token(x.workspace.id, ['contacts:write', 'schema:write']));
  // Each refusal lists 40 options of about 20 characters: about 900 bytes, so only a few fit in a row's share.
  const options = Array.from({ length: 40 }, (_, i) => `option-number-${String(i).padStart(4, '0')}`);
  const keys = Array.from({ length: 6 }, (_, i) => `pick_${i}`);
  for (const key of keys) t.equal((await adminX.post('/v1/custom-fields', { object_type: 'contact', key, label: key, type: 'select', options })).status, 201);
  const file = path.join(dir, 'many.csv');
  await writeFile(file, `first_name,phone,${keys.map((k) => `custom.${k}`).join(',')}\n,12345,${keys.map(() => 'nope').join(',')}\n`);
  const res = await stack.crm(['import', 'contacts', file, '--workspace', x.workspace.id, '--json']);
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  t.match(JSON.parse(res.stdout) as ImportSummary, { rows: 1, invalid: 1 });
  const errors = await errorsIn(path.join(dir, 'many.errors.csv'));
  t.same(errors.slice(0, 2).map((e) => e.field), ['first_name', 'phone'], 'the row\'s own fields first');
  const last = errors.at(-1);
  t.match(last, { line: 2, field: '', reason: /^\d+ more problems? of this row not listed: fix those above and import it again\.$/ });
  const more = Number(/^(\d+)/.exec(last?.reason ?? '')?.[1]);
  t.equal(errors.length - 1 + more, 2 + keys.length, 'listed and left out add up to every problem');
  t.ok(more > 0 && more < keys.length, 'some custom fields are listed');
});
