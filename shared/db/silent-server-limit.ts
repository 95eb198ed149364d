import type pg from 'pg';
import { PreparedStatementClient } from './prepared-statement-client.js';

/** Past a statement's timeout, how long to wait still for Postgres's own answer (the cancellation) to arrive. */
const GRACE_MS = 5_000;

type Query = (...args: unknown[]) => unknown;

/**
 * The service's pg client, giving up a connection whose server has fallen silent. With `statement_timeout` set,
 * a live Postgres answers every statement within it (cancelling it if need be), so one
 * unanswered well past it means the server or the path to it is gone (a failover, a host lost
 * without a reset): its socket is destroyed, the statement fails and the pool drops the
 * connection. Before, each such connection waited for TCP to give up (about 15 minutes on
 * Linux) holding its pool slot; once every slot was stuck, the worker answered 503 and its
 * /readyz said "timeout" though Postgres answered new connections again.
 */
export function withSilentServerLimit(statementTimeoutMs: number): typeof PreparedStatementClient {
  return class extends PreparedStatementClient {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      const query = this.query.bind(this) as Query;
      const self = this as unknown as { query: Query };
      // A transaction that lifted the timeout (a migration: `set local statement_timeout = 0`) is not limited here either.
      let unlimitedTransaction = false;
      self.query = (...queryArgs: unknown[]) => {
        if (this.getTransactionStatus() === 'I') unlimitedTransaction = false;
        const text = queryArgs[0];
        if (typeof text === 'string' && /^\s*set\s+local\s+statement_timeout\b/i.test(text)) unlimitedTransaction = true;
        const result = query(...queryArgs);
        // A cursor or a query with a callback is handled by its caller.
        if (unlimitedTransaction || !(result instanceof Promise)) return result;
        // Timed from the call: statements queued on one client (none of ours are) would share one allowance.
        const timer = setTimeout(() => this.connection.stream.destroy(), statementTimeoutMs + GRACE_MS);
        return result.finally(() => clearTimeout(timer));
      };
    }
  };
}
