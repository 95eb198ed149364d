import { loadConfig } from '../../shared/config.js';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { openDatabase } from '../../shared/db/orm.js';
import { createLogger } from '../../shared/logger.js';
import { parseCommandArgs, withoutPositionals } from '../args.js';
import { reachDatabase } from '../database-reach.js';
import { resolveDatabase } from '../environment.js';
import { printJson, printLines } from '../output.js';

export const usage = `Usage: crm migrate [--json]

Applies pending database migrations (safe to run from several places at once).`;

export async function run(argv: string[]): Promise<void> {
  const args = withoutPositionals(parseCommandArgs(argv, { json: { type: 'boolean' } }, usage), usage);
  const config = loadConfig();
  const log = createLogger({ level: config.logLevel, component: 'migrate', fd: 2 });
  const db = await resolveDatabase(config, log, 'command');
  try {
    const orm = await openDatabase({ url: db.url, poolMax: 2, applicationName: 'crm migrate' });
    try {
      await reachDatabase(orm, db.url, db.embedded);
      const applied = await migrateDatabase(orm, db.url, { log });
      if (args.values.json) printJson({ applied });
      else printLines(applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
    } finally {
      await orm.close();
    }
  } finally {
    await db.release();
  }
}
