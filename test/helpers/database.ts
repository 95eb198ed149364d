import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Test } from 'tap';
import { migrateDatabase } from '../../shared/db/migrate.js';
import { openDatabase, type Orm } from '../../shared/db/orm.js';
import { ADMIN_DATABASE_URL } from './environment.js';

/** A connection to a test's database, for checking what the service stored. */
export interface DatabaseAccess {
  name: string;
  url: string;
  /** Direct SQL. A database may be shared by several test files: scope queries by workspace. */
  query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  close(): Promise<void>;
}

/** A database the test created and drops again. */
export interface TestDatabase extends DatabaseAccess {
  drop(): Promise<void>;
}

/** Connects to an existing database (e.g. the one of the suite's shared stack). */
export function connectDatabase(url: string): DatabaseAccess {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  // An idle connection cut by a server restart (test/resilience) must not crash the test process.
  pool.on('error', () => undefined);
  let closed: Promise<void> | undefined;
  return {
    name: new URL(url).pathname.slice(1),
    url,
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    close: () => (closed ??= pool.end()),
  };
}

function urlFor(name: string, adminUrl: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh, migrated database of its own; dropped again by `drop()`. */
export async function createTestDatabase(adminUrl = ADMIN_DATABASE_URL): Promise<TestDatabase> {
  const name = `crm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Tests need Postgres at ${adminUrl} (set TEST_DATABASE_URL): ${String(error)}`, { cause: error });
  }
  await admin.query(`create database ${name}`);
  await admin.end();

  const url = urlFor(name, adminUrl);
  const orm = await openDatabase({ url, poolMax: 2, applicationName: 'crm tests' });
  await migrateDatabase(orm, url);
  await orm.close();

  const access = connectDatabase(url);
  return {
    ...access,
    drop: async () => {
      await access.close();
      await dropTestDatabase(name, adminUrl);
    },
  };
}

export async function dropTestDatabase(name: string, adminUrl = ADMIN_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  await client.end();
}

/**
 * The test's database as it stood before `migration` (the migrations after `lastKept` rolled back),
 * with an ORM on it for `migrateDatabase`: how a migration's test sees data an older release wrote.
 */
export async function databaseAfterMigration(t: Test, db: DatabaseAccess, lastKept: string): Promise<Orm> {
  const orm = await openDatabase({ url: db.url, poolMax: 2, applicationName: 'crm tests' });
  t.teardown(() => orm.close());
  await orm.migrator.down({ to: lastKept });
  return orm;
}
