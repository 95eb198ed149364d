import { existsSync } from 'node:fs';
import path from 'node:path';

/** Tests always run against real Postgres and real NATS on this machine. */
export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.TEST_NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * The repository: the nearest folder up with a package.json. Tests run compiled from
 * `dist-test/` (see package.json `build:tests`) as well as from their sources, so the way
 * up from this file is not fixed.
 */
export const ROOT = repositoryRoot(import.meta.dirname);

function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
/** The compiled CLI: tests run what production runs (`npm test` builds first). */
export const CRM_BIN = path.join(ROOT, 'dist', 'cli', 'crm.js');

/**
 * A Node program as tests start it: without the process-tracking hook that tap adds to
 * every child's NODE_OPTIONS. That hook serves coverage, which is off, and it more than
 * doubles the start-up time of a short command such as `crm tokens create`.
 */
export function nodeCommand(args: string[]): [string, string[]] {
  // `env` replaces itself with node, so the pid and signals are node's.
  return ['/usr/bin/env', ['-u', 'NODE_OPTIONS', process.execPath, ...args]];
}
