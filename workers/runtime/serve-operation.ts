import { DriverException, ConnectionException } from '@mikro-orm/core';
import { missingScope } from '../../shared/auth/scopes.js';
import { decode } from '../../shared/bus/codec.js';
import { RequestEnvelope } from '../../shared/bus/envelope.js';
import { HEADER } from '../../shared/bus/headers.js';
import { operatorCallProblem } from '../../shared/bus/operator-signature.js';
import { queueOf, scopesOf, subjectOf } from '../../shared/bus/operation.js';
import { encodeErrorReply, encodeReply } from '../../shared/bus/reply.js';
import type { BusMessage, BusSubscription } from '../../shared/bus/transport.js';
import { workspaceEm, type EntityManager } from '../../shared/db/orm.js';
import { isStalePlan } from '../../shared/db/prepared-statement-client.js';
import { checkViolation } from '../../shared/db/sql.js';
import { workspaceSql } from '../../shared/db/workspace-sql.js';
import { CrmError, ForbiddenError, InternalError, MissingScopeError, UnavailableError, validationErrorFrom } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { Semaphore } from './concurrency.js';
import { oneAtATime } from './one-at-a-time.js';
import { customFieldsTooLarge, isCustomFieldsSizeLimit } from '../schema/custom-fields-size.js';
import { contractOutputProblem } from './contract-output.js';
import { fitReply, replyBudget } from './fit-reply.js';
import { EventRecorder } from './events/event-recorder.js';
import { fingerprintOf, runIdempotent } from './idempotency.js';
import { requireStorableText } from './storable-text.js';
import { isStatementCancelled } from './statement-cancelled.js';
import { isTransactionConflict } from './transaction-conflict.js';
import { isConnectionPoolExhausted } from './connection-pool-exhausted.js';
import { isDatabaseOutOfResources } from './database-out-of-resources.js';
import type { HandlerBinding, WorkerServices } from './worker-call.js';

/** Subscribes one operation in its worker's queue group and answers every request. */
export function serveOperation(
  binding: HandlerBinding,
  services: WorkerServices,
  log: Logger,
  slots: Semaphore,
): BusSubscription {
  const { op, handler } = binding;
  const subject = subjectOf(services.busNamespace, op);
  // The line every request ends with has fixed fields, none a secret: it skips the redaction
  // (a cost on every request) that lines with free-form objects go through.
  const handledLines = log.child({ subject }, { redact: [] });

  const answer = async (message: BusMessage): Promise<Uint8Array> => {
    const requestId = message.headers[HEADER.requestId] ?? 'unknown';
    const deadline = Number(message.headers[HEADER.deadline] ?? Date.now() + 30_000);
    // Made when a line needs it (errors, handlers that log), not for every request.
    let requestLog: Logger | undefined;
    const reqLog = (): Logger => (requestLog ??= log.child({ request_id: requestId, subject }));
    const started = performance.now();

    services.metrics?.taken();
    await slots.acquire();
    let outcome = 'ok';
    try {
      // Not a number (NaN compares false with everything): the request would have no deadline at all.
      if (Number.isNaN(deadline)) throw new InternalError(`Malformed request deadline on ${subject}`);
      // The caller has given up already: doing the work now could only surprise it.
      if (Date.now() > deadline) {
        outcome = 'expired';
        return encodeErrorReply(new UnavailableError('The request expired in the queue.').toPayload());
      }

      const envelope = RequestEnvelope.safeParse(decodedOrUndefined(message.data));
      if (!envelope.success) throw new InternalError(`Malformed request envelope on ${subject}`);
      const input = op.input.safeParse(envelope.data.input);
      if (!input.success) throw validationErrorFrom(input.error);
      requireStorableText(input.data);
      const context = envelope.data.context;
      if (op.scoped && !context) throw new InternalError(`${subject} needs a workspace context`);
      if (op.operatorOnly || context?.principal.type === 'operator') {
        const problem = operatorCallProblem(services.secrets.operatorCallKey, subject, message.headers, message.data);
        if (problem) {
          reqLog().warn({ problem }, 'operator call refused');
          throw new ForbiddenError('Operator calls must be signed by the command line.');
        }
      }
      const missing = context ? missingScope(context.principal.scopes, scopesOf(op)) : null;
      if (missing) throw new MissingScopeError(missing);

      // Forked when first asked for: a read made with typed SQL alone (a list, a get) does not
      // pay for an entity manager it never uses; its SQL runs on the pool (outside any transaction).
      let forked: EntityManager | undefined;
      const em = (): EntityManager => (forked ??= context ? workspaceEm(services.orm, context.workspace_id) : services.orm.em.fork());
      const idempotencyKey = message.headers[HEADER.idempotencyKey];
      const effects: (() => void)[] = [];
      // The workspace of both the entity filter and the typed SQL is the one the credential resolved.
      const callOn = (emOf: () => EntityManager, sqlOn: EntityManager) => {
        const db = context ? workspaceSql(sqlOn, context.workspace_id) : null;
        const events = context && db ? new EventRecorder(db, context, requestId, { off: !services.events.recording }) : null;
        return {
          input: input.data,
          context,
          get em() {
            return emOf();
          },
          db,
          events,
          requestId,
          get log() {
            return reqLog();
          },
          services,
          afterCommit: (effect: () => void) => effects.push(effect),
        };
      };

      let result: unknown;
      let replayed: boolean | undefined;
      if (op.idempotent && idempotencyKey && context) {
        ({ result, replayed } = await runIdempotent(
          em(),
          { workspaceId: context.workspace_id, key: idempotencyKey, fingerprint: fingerprintOf(subject, input.data, context.principal) },
          (tx) => handler(callOn(() => tx, tx)),
        ));
      } else if (context && !op.readOnly && !isSingleStatement(binding, input.data)) {
        // A write and its events commit together, or neither does; the locks it takes hold until then
        // (with events off too: a lock released after its own statement guards nothing).
        result = await em().transactional((tx) => handler(callOn(() => tx, tx)));
      } else {
        result = await handler(callOn(em, services.orm.em));
      }
      const problem = services.validateReplies ? contractOutputProblem(op, result) : null;
      if (problem) {
        reqLog().error({ problem }, 'reply outside its contract');
        throw new InternalError();
      }
      for (const effect of effects) effect();
      handledLines.info({ request_id: requestId, ms: Math.round(performance.now() - started), replayed }, 'handled');
      const reply = encodeReply(op, result, replayed);
      const budget = replyBudget(services.bus.maxMessageBytes());
      return reply.length <= budget ? reply : fitReply(op, result, replayed, reply, budget, reqLog());
    } catch (error) {
      const crmError = toCrmError(error, reqLog());
      handledLines.info({ request_id: requestId, ms: Math.round(performance.now() - started), error_code: crmError.code }, 'handled with error');
      outcome = crmError.code;
      return encodeErrorReply(crmError.toPayload());
    } finally {
      slots.release();
      services.metrics?.done(subject, outcome, (performance.now() - started) / 1000);
    }
  };

  return services.bus.subscribe(subject, queueOf(services.busNamespace, op.worker), binding.inArrivalOrder ? oneAtATime((message) => message.headers[HEADER.requestId] ?? '', answer) : answer);
}

/**
 * The message's JSON, or undefined (a malformed envelope) when it is none: JSON.parse's
 * error quotes the text around the fault, which was logged as an unexpected error, a
 * password in a sign-in request included.
 */
function decodedOrUndefined(data: Uint8Array): unknown {
  try {
    return decode(data);
  } catch {
    return undefined;
  }
}

function toCrmError(error: unknown, log: Logger): CrmError {
  if (error instanceof CrmError) return error;
  if (isStalePlan(error)) {
    // A migration changed a table under a statement prepared in this request's transaction; the statement runs unnamed from now on.
    log.warn({ err: error }, 'a table changed under a prepared statement');
    return new UnavailableError('The database schema changed during this request. Retry.', 1);
  }
  if (isStatementCancelled(error)) {
    log.warn({ err: error }, 'a statement ran past DB_STATEMENT_TIMEOUT_MS (or an administrator cancelled it); nothing of the request was kept');
    return new UnavailableError('The database took too long over this request and cancelled it; nothing was changed. Retry shortly.', 1);
  }
  if (isConnectionPoolExhausted(error)) {
    // Busy, or still connecting to a database that does not answer: the pool cannot tell which.
    log.warn({ err: error }, 'no database connection of this worker came free in time: all were in use or still connecting; if the database answers, raise DB_POOL_MAX or start more workers');
    return new UnavailableError('The service is busy: no database connection came free in time. Retry shortly.', 1);
  }
  if (error instanceof ConnectionException || isDatabaseUnreachable(error)) {
    log.warn({ err: error }, 'database unavailable');
    return new UnavailableError('The database is not reachable right now. Retry shortly.', 2);
  }
  if (isDatabaseOutOfResources(error)) {
    // Before: a 500, as if the request were at fault; it is the database's capacity, and a retry can succeed.
    log.warn({ err: error }, 'database out of resources');
    return new UnavailableError('The database is out of capacity right now (connections, memory or disk). Retry shortly.', 2);
  }
  if (isTransactionConflict(error)) {
    // Rolled back whole, so the caller may send it again (an import's batch is, at once).
    log.warn({ err: error }, 'transaction rolled back by a conflict with another');
    return new UnavailableError('The write conflicted with a concurrent one and was rolled back. Retry.', 1);
  }
  if (isCustomFieldsSizeLimit(checkViolation(error))) return customFieldsTooLarge();
  if (error instanceof DriverException) log.error({ err: error, sql_state: error.sqlState ?? error.code }, 'database error');
  else log.error({ err: error }, 'unexpected error');
  return new InternalError();
}

/**
 * The database going away (a restart, a failover) rather than a fault of the request:
 * SQLSTATE class 08 (connection exception) or 57 (operator intervention, e.g. 57P01
 * "terminating connection due to administrator command"), a socket error, or the pool's
 * and client's own messages; also when wrapped (`cause`) by the ORM or a transaction.
 */
function isDatabaseUnreachable(error: unknown, depth = 0): boolean {
  if (!(error instanceof Error) || depth > 5) return false;
  const sqlState = error instanceof DriverException ? (error.sqlState ?? error.code) : 'code' in error ? error.code : undefined;
  if (typeof sqlState === 'string' && (/^(08|57)/.test(sqlState) || SOCKET_ERRORS.has(sqlState))) return true;
  if (UNREACHABLE_MESSAGE.test(error.message)) return true;
  return isDatabaseUnreachable(error.cause, depth + 1);
}

const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTCONN']);
const UNREACHABLE_MESSAGE =
  /Connection terminated|connection is closed|is not queryable|timeout expired|Query read timeout|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|This socket has been ended|terminating connection|the database system is (starting up|shutting down|in recovery mode)/i;

function isSingleStatement(binding: HandlerBinding, input: unknown): boolean {
  return typeof binding.singleStatement === 'function' ? binding.singleStatement(input) : binding.singleStatement === true;
}
