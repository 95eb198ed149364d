import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import t from 'tap';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';

/**
 * `crm import contacts` of files as spreadsheets and address books save them, against the
 * stack as production runs it (a file of its own: import-contacts.test.ts is near its time limit).
 */
const stack = await useStack(t);
const dir = await mkdtemp(path.join(tmpdir(), 'crm-import-sheets-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

const phoneOf = (i: number) => `(212) ${400 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
const e164Of = (i: number) => `+1212${400 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`;
const errorsIn = async (errorsFile: string) => (parse(await readFile(errorsFile, 'utf8'), { columns: true }) as { line: string; field: string; reason: string }[]).map((r) => ({ ...r, line: Number(r.line) }));

t.test('files as spreadsheets save them: semicolons after a sep= line, UTF-16 with tabs, "First Name" headers, select options in any case', async (t) => {
  const v = await stack.bootstrap({ defaultCountry: 'US' });
  const admin = client(stack.baseUrl, await stack.token(v.workspace.id, ['contacts:write', 'schema:write']));
  t.equal((await admin.post('/v1/custom-fields', { object_type: 'contact', key: 'lead_source', label: 'Lead source', type: 'select', options: ['web', 'Trade Show'] })).status, 201);
  const semicolons = path.join(dir, 'excel-semicolons.csv');
  await writeFile(semicolons, `sep=;\r\nFirst Name;Last Name;E-mail;Phone Number;Custom.Lead Source\r\nAda;Lovelace, Countess;ada@example.test;${phoneOf(67_000)};WEB\r\nBad;x;;12345;trade show\r\n`);
  const first = await stack.crm(['import', 'contacts', semicolons, '--workspace', v.workspace.id, '--json']);
  t.equal(first.code, 3, 'a row in the errors file: exit 3');
  t.match(JSON.parse(first.stdout), { rows: 2, created: 1, invalid: 1 });
  t.same(await errorsIn(path.join(dir, 'excel-semicolons.errors.csv')), [{ line: 4, field: 'phone', reason: 'phone: "12345" is not a valid phone number.' }], 'lines count the sep= line');
  const unicodeText = path.join(dir, 'excel-unicode.txt');
  await writeFile(unicodeText, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`first_name\tphone\tcustom.lead_source\r\nZoë\t${phoneOf(67_001)}\tTrade Show\r\n`, 'utf16le')]));
  const second = await stack.crm(['import', 'contacts', unicodeText, '--workspace', v.workspace.id, '--json']);
  t.equal(second.code, 0, second.stderr);
  t.match(JSON.parse(second.stdout), { rows: 1, created: 1, invalid: 0 });
  t.same(await stack.db.query('select first_name, last_name, email, phone, custom_fields from contacts where workspace_id = $1 order by phone', [v.workspace.id]), [
    { first_name: 'Ada', last_name: 'Lovelace, Countess', email: 'ada@example.test', phone: e164Of(67_000), custom_fields: { lead_source: 'web' } },
    { first_name: 'Zoë', last_name: null, email: null, phone: e164Of(67_001), custom_fields: { lead_source: 'Trade Show' } },
  ]);
});
