/**
 * Every unit test file of test/unit/ in one process. Each takes well under a second, while
 * a tap process of its own costs about two seconds of CPU to start; `npm test` runs this
 * file instead of each of them. One of them alone: `npx tap --node-arg=--import=tsx test/unit/money.test.ts`.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'unit');
// `.ts` from the sources, `.js` when run compiled from dist-test/.
for (const file of readdirSync(dir).filter((f) => /\.test\.[jt]s$/.test(f)).sort()) await import(path.join(dir, file));
