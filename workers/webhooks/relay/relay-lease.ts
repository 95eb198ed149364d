import pg from 'pg';
import type { Logger } from '../../../shared/logger.js';

/**
 * Which worker copy relays: the one holding a Postgres advisory lock on its own connection.
 * The lock lives as long as that connection, so a copy that dies (kill -9 included) frees it
 * at once and another takes over at its next try.
 */
export class RelayLease {
  private client: pg.Client | null = null;

  constructor(
    private readonly databaseUrl: string,
    /** One lease per deployment namespace, in case two share a database. */
    private readonly name: string,
    private readonly log: Logger,
  ) {}

  /** True once this process holds the lease; false while another does. */
  async tryAcquire(onLost: () => void): Promise<boolean> {
    // Keep-alive probes notice a connection lost without a word (a network split) in minutes
    // rather than hours, so this copy stops relaying soon after Postgres frees the lock.
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: 'crm event relay', keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('error', (err) => this.log.warn({ err }, 'event relay lease connection failed'));
    await client.connect();
    try {
      // The lock lives as long as Postgres keeps this session. A connection cut without a word
      // (a NAT or firewall forgetting an idle flow) would leave the backend, and the lock, for
      // the server's default keep-alive (two hours and more) while no copy relays: the server
      // probes this session itself, and ends it within about half a minute of silence.
      await client.query('set tcp_keepalives_idle = 10; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3');
      const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock(hashtext($1)) as held', [`crm event relay ${this.name}`]);
      if (!rows[0]?.held) {
        await client.end();
        return false;
      }
      client.on('end', () => {
        if (this.client === client) {
          this.client = null;
          onLost();
        }
      });
      this.client = client;
      return true;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  get held(): boolean {
    return this.client !== null;
  }

  async release(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
