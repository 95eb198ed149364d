/**
 * Every unit test file of test/unit/ in one process. Each takes well under a second, while
 * a tap process of its own costs about two seconds of CPU to start; `npm test` runs this
 * file instead of each of them. One of them alone: `npx tap test/unit/money.test.ts`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'unit');
for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort()) await import(path.join(dir, file));
