import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { ALL_ENTITIES, WORKSPACE_ENTITIES } from './entities/index.js';
import { MIGRATIONS } from './migrations/index.js';
import { PreparedStatementClient } from './prepared-statement-client.js';
import { withSilentServerLimit } from './silent-server-limit.js';

export type { EntityManager };
export type Orm = MikroORM;

/** Name of the filter that scopes every query on a workspace-owned entity. */
export const WORKSPACE_FILTER = 'workspace';

export interface OpenDatabaseOptions {
  url: string;
  poolMax: number;
  /** Shows in pg_stat_activity, e.g. `crm worker:contacts`. */
  applicationName: string;
  /** Postgres cancels a statement running longer (DB_STATEMENT_TIMEOUT_MS); absent or 0: no limit. */
  statementTimeoutMs?: number;
}

export async function openDatabase({ url, poolMax, applicationName, statementTimeoutMs }: OpenDatabaseOptions): Promise<Orm> {
  return MikroORM.init({
    clientUrl: url,
    entities: ALL_ENTITIES,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'crm_migrations',
      snapshot: false,
      snapshotOnMigrate: false,
      silent: true,
    },
    pool: { min: 0, max: poolMax, idleTimeoutMillis: 30_000 },
    // Fail fast while Postgres is down instead of queueing requests behind a dead pool.
    // UTC sessions: timestamps print the same way whatever the server's time zone.
    // Prepared statements: each distinct statement is parsed and planned once per connection.
    // A statement timeout set per connection costs the hot path nothing (no SET per request).
    driverOptions: { connectionTimeoutMillis: 3_000, application_name: applicationName, options: `-c TimeZone=UTC${statementTimeoutMs ? ` -c statement_timeout=${statementTimeoutMs}` : ''}`, Client: statementTimeoutMs ? withSilentServerLimit(statementTimeoutMs) : PreparedStatementClient },
    filters: {
      // Defense in depth: a query on a workspace entity without the workspace parameter set
      // throws instead of reading across workspaces. Opting out is explicit ({ filters: false }).
      [WORKSPACE_FILTER]: {
        name: WORKSPACE_FILTER,
        cond: (args: Record<string, unknown>) => ({ workspaceId: args.id }),
        entity: WORKSPACE_ENTITIES,
        default: true,
      },
    },
    allowGlobalContext: false,
    ensureDatabase: false,
    debug: false,
  });
}

/** A fresh entity manager bound to one workspace. */
export function workspaceEm(orm: Orm, workspaceId: string): EntityManager {
  const em = orm.em.fork();
  em.setFilterParams(WORKSPACE_FILTER, { id: workspaceId });
  return em;
}
