import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { Gauge, type Registry } from 'prom-client';
import type { Orm } from '../db/orm.js';

/** Postgres pool usage, read at scrape time: a pool at its max with waiters means add connections or workers. */
export function registerPoolMetrics(registry: Registry, orm: Orm): void {
  const poolMax = orm.config.get('pool').max ?? 0;
  const connection = orm.em.getDriver().getConnection() as PostgreSqlConnection;
  new Gauge({
    name: 'crm_db_pool_connections',
    help: 'Postgres pool connections by state: total, idle, waiting (requests queued for a connection), max',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const pool = await connection.getNativeClient().catch(() => null);
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
      this.set({ state: 'max' }, poolMax);
    },
  });
}
