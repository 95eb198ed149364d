/**
 * Runs after the whole suite (`npm test`): every operation that /v1/openapi.json
 * documents must have been exercised by at least one test. The per-response checks
 * happen as the tests run (test/helpers/openapi-contract.ts).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { V1_ENDPOINTS } from '../../gateway/routes/v1/endpoints.js';
import { CONTRACT_LOG_DIR } from '../helpers/openapi-contract.js';

const seen = new Map<string, Set<number>>();
let files: string[] = [];
try {
  files = readdirSync(CONTRACT_LOG_DIR).filter((f) => f.endsWith('.jsonl'));
} catch {
  // No test recorded anything.
}
for (const file of files) {
  for (const line of readFileSync(path.join(CONTRACT_LOG_DIR, file), 'utf8').split('\n').filter(Boolean)) {
    const { operationId, status } = JSON.parse(line) as { operationId: string; status: number };
    seen.set(operationId, (seen.get(operationId) ?? new Set()).add(status));
  }
}
rmSync(CONTRACT_LOG_DIR, { recursive: true, force: true });

const missing = V1_ENDPOINTS.filter((e) => !seen.has(e.operationId));
const total = [...seen.values()].reduce((n, s) => n + s.size, 0);
process.stdout.write(`# contract: ${seen.size}/${V1_ENDPOINTS.length} documented operations exercised (${total} operation/status pairs)\n`);
if (missing.length > 0) {
  process.stderr.write(`Documented but never exercised by a test: ${missing.map((e) => `${e.method.toUpperCase()} ${e.path}`).join(', ')}\n`);
  process.exit(1);
}
