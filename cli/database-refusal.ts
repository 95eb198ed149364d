/**
 * SQLSTATEs of Postgres refusing a connection: invalid authorization (class 28: a role that
 * does not exist, a wrong password), a database that does not exist (3D000), no connection
 * slot left (53300), a server still starting (57P03).
 */
const REFUSAL = /^(28...|3D000|53300|57P03)$/;

/**
 * Postgres refusing this process (found in the error or what it wraps, as the ORM wraps the
 * driver's): a fault of DATABASE_URL or of the server, which one line says better than a
 * stack. Null for any other error.
 */
export function databaseRefusal(error: unknown, depth = 0): string | null {
  if (!(error instanceof Error) || depth > 5) return null;
  // The driver's errors, and the ORM's wrapping them, carry the server's severity and SQLSTATE.
  const code: unknown = 'code' in error ? error.code : undefined;
  if ('severity' in error && typeof code === 'string' && REFUSAL.test(code)) {
    return `Postgres refused the connection: ${error.message} (SQLSTATE ${code}). Check DATABASE_URL.`;
  }
  return databaseRefusal(error.cause, depth + 1);
}
