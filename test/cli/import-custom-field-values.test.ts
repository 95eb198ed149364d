import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import t from 'tap';
import { ROWS_NOT_IMPORTED_EXIT_CODE, type ImportSummary } from '../../cli/commands/import.js';
import type { Contact, ErrorBody } from '../helpers/api-types.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * A spreadsheet cell means what the same value sent to POST /v1/contacts means: the import
 * reads a cell's text as the field's type (numbers, true/false), and from there the one rule
 * of every write decides what is stored or refused. Against the stack as production runs it.
 */
const stack = await useStack(t);
const dir = await mkdtemp(path.join(tmpdir(), 'crm-import-values-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const errorsIn = async (errorsFile: string) =>
  (parse(await readFile(errorsFile, 'utf8'), { columns: true }) as { line: string; field: string; reason: string }[]).map((r) => ({ ...r, line: Number(r.line) }));

const w = await stack.bootstrap({ defaultCountry: 'US' });
const api = client(stack.baseUrl, await stack.token(w.workspace.id, ['contacts:write', 'schema:write']));
for (const field of [
  { object_type: 'contact', key: 'note', label: 'Note', type: 'text' },
  { object_type: 'contact', key: 'score', label: 'Score', type: 'number' },
  { object_type: 'contact', key: 'vip', label: 'VIP', type: 'boolean' },
  { object_type: 'contact', key: 'since', label: 'Since', type: 'date' },
  { object_type: 'contact', key: 'source', label: 'Source', type: 'select', options: ['web', 'Trade Show'] },
]) {
  const res = await api.post('/v1/custom-fields', field);
  if (res.status !== 201) throw new Error(`custom field: ${JSON.stringify(res.body)}`);
}

const phoneOf = (i: number) => `(212) 470-${String(i).padStart(4, '0')}`;

/** Cells as a spreadsheet holds them, and the typed value a REST client sends for each. */
const SAME: { cells: Record<string, string>; typed: Record<string, unknown> }[] = [
  { cells: { note: '00123', score: '42', vip: 'TRUE', since: '2026-01-31', source: 'WEB' }, typed: { note: '00123', score: 42, vip: true, since: '2026-01-31', source: 'WEB' } },
  { cells: { note: 'x', score: '-4.5', vip: 'false', source: ' trade show ' }, typed: { note: 'x', score: -4.5, vip: false, source: ' trade show ' } },
  { cells: { score: '1e3', vip: 'True', source: 'Trade Show' }, typed: { score: 1000, vip: true, source: 'Trade Show' } },
  { cells: { score: '9007199254740991' }, typed: { score: 9_007_199_254_740_991 } },
];
/** Cells refused, and the typed value REST refuses with the same reason. */
const REFUSED: { cells: Record<string, string>; typed: Record<string, unknown> }[] = [
  { cells: { source: 'billboard' }, typed: { source: 'billboard' } },
  { cells: { since: '31/01/2026' }, typed: { since: '31/01/2026' } },
  { cells: { since: '2026-02-30' }, typed: { since: '2026-02-30' } },
  { cells: { score: '18446744073709551616' }, typed: { score: 2 ** 64 } },
];
const KEYS = ['note', 'score', 'vip', 'since', 'source'];

t.test('what an import stores for a cell is what POST /v1/contacts stores for the typed value, and it refuses what REST refuses, saying the same', async (t) => {
  const file = path.join(dir, 'values.csv');
  const rows = [...SAME, ...REFUSED].map(({ cells }, i) => [`Row${i}`, phoneOf(i), ...KEYS.map((key) => cells[key] ?? '')].join(','));
  await writeFile(file, `${['first_name', 'phone', ...KEYS.map((key) => `custom.${key}`)].join(',')}\n${rows.join('\n')}\n`);
  const res = await stack.crm(['import', 'contacts', file, '--workspace', w.workspace.id, '--json']);
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  t.match(JSON.parse(res.stdout) as ImportSummary, { rows: SAME.length + REFUSED.length, created: SAME.length, invalid: REFUSED.length });
  const errors = await errorsIn(path.join(dir, 'values.errors.csv'));

  for (const [i, { typed }] of SAME.entries()) {
    const sent = await api.post<Contact>('/v1/contacts', { first_name: `Rest${i}`, phone: phoneOf(100 + i), custom_fields: typed });
    t.equal(sent.status, 201, JSON.stringify(sent.body));
    const [imported, rest] = await Promise.all(
      [phoneOf(i), phoneOf(100 + i)].map(async (phone) => {
        const found = await api.get<{ data: Contact[] }>(`/v1/contacts?phone=${encodeURIComponent(phone)}`);
        return found.body.data[0]?.custom_fields;
      }),
    );
    t.same(imported, rest, `row ${i + 2}: ${JSON.stringify(SAME[i]?.cells)}`);
  }
  for (const [i, { typed }] of REFUSED.entries()) {
    const sent = await api.post<ErrorBody>('/v1/contacts', { first_name: `Rest${i}`, phone: phoneOf(200 + i), custom_fields: typed });
    t.equal(sent.status, 400);
    const line = SAME.length + i + 2;
    t.same(
      errors.filter((e) => e.line === line).map(({ field, reason }) => ({ field, reason })),
      [{ field: sent.body.error.param, reason: sent.body.error.message }],
      `line ${line}: ${JSON.stringify(typed)}`,
    );
  }
});

t.test('a number cell too large for a double is refused as REST refuses 1e400, not as text', async (t) => {
  const file = path.join(dir, 'huge.csv');
  await writeFile(file, `first_name,phone,custom.score\nHuge,${phoneOf(300)},1e400\n`);
  const res = await stack.crm(['import', 'contacts', file, '--workspace', w.workspace.id, '--json']);
  t.equal(res.code, ROWS_NOT_IMPORTED_EXIT_CODE, res.stderr);
  const sent = await api.send<ErrorBody>('POST', '/v1/contacts', {
    rawBody: `{"first_name":"Huge","phone":"${phoneOf(301)}","custom_fields":{"score":1e400}}`,
    headers: { 'content-type': 'application/json' },
  });
  t.equal(sent.status, 400);
  t.same(await errorsIn(path.join(dir, 'huge.errors.csv')), [{ line: 2, field: sent.body.error.param, reason: sent.body.error.message }]);
});
