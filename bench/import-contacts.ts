/**
 * The bulk import's rate: writes a CSV of `rows` contacts and times the real
 * `crm import contacts` against a running stack, from spawn to exit (what a user waits).
 * It imports into a workspace of its own, so it never collides with other seeded data.
 *
 *   npx tsx bench/import-contacts.ts [--rows 100000]   (starts its own stack; needs Postgres and NATS)
 *
 * The bar: 100,000 rows in under a minute.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ImportSummary } from '../cli/commands/import.js';
import { startBenchStack } from './bench-stack.js';
import { runCrmJson } from './processes.js';

const IMPORT_BAR_SECONDS = 60;

export interface ImportBenchResult {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

/** US numbers in national format, so every row goes through the default-country parsing. */
function phoneOf(i: number): string {
  return `(646) ${300 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
}

async function writeContactsCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('first_name,last_name,email,phone,status\n');
  for (let i = 0; i < rows; i++) {
    await write(`Import${i},Person${i},import${i}@example.test,${phoneOf(i)},${i % 20 === 0 ? 'archived' : 'active'}\n`);
  }
  out.end();
  await once(out, 'finish');
}

/**
 * Imports `rows` generated contacts with the real command, into a new workspace of the
 * stack whose environment is `env` (DATABASE_URL, NATS_URL, CRM_SECRET, BUS_NAMESPACE;
 * its contacts workers must be running).
 */
export async function benchImportContacts({ env, rows }: { env: NodeJS.ProcessEnv; rows: number }): Promise<ImportBenchResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'crm-import-bench-'));
  try {
    const file = path.join(dir, 'contacts.csv');
    await writeContactsCsv(file, rows);
    const suffix = randomBytes(3).toString('hex');
    const boot = await runCrmJson<{ workspace: { id: string } }>(
      ['bootstrap', '--org', `Import bench ${suffix}`, '--workspace', 'Import bench', '--email', `import-${suffix}@example.test`, '--password', 'bench password 123', '--default-country', 'US'],
      env,
    );
    const started = performance.now();
    const summary = await runCrmJson<ImportSummary>(['import', 'contacts', file, '--workspace', boot.workspace.id], env);
    const seconds = (performance.now() - started) / 1000;
    if (summary.created !== rows) throw new Error(`the import created ${summary.created} of ${rows} rows (${summary.invalid} invalid)`);
    return { rows, seconds, rowsPerSecond: rows / seconds };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function formatImportResult(result: ImportBenchResult): string {
  const verdict = result.seconds < IMPORT_BAR_SECONDS ? 'PASS' : 'FAIL';
  return (
    `crm import contacts: ${result.rows.toLocaleString('en')} rows in ${result.seconds.toFixed(1)} s, ` +
    `${Math.round(result.rowsPerSecond).toLocaleString('en')} rows/s (< ${IMPORT_BAR_SECONDS} s) ${verdict}`
  );
}

/** Standalone: a stack of its own (workers and gateway as separate processes, real NATS and Postgres). */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rows: { type: 'string', default: '100000' } } });
  const stack = await startBenchStack();
  try {
    const result = await benchImportContacts({ env: stack.env, rows: Number(values.rows) });
    process.stdout.write(`${formatImportResult(result)}\n`);
  } finally {
    await stack.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
