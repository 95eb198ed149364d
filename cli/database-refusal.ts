/**
 * SQLSTATEs of Postgres refusing a connection: invalid authorization (class 28: a role that
 * does not exist, a wrong password) and a database that does not exist (3D000), which last
 * until DATABASE_URL or the server is changed; no connection slot left (53300) and a server
 * still starting (57P03), which pass.
 */
const LASTING = /^(28...|3D000)$/;
const PASSING = /^(53300|57P03)$/;

export interface DatabaseRefusal {
  /** One line for the operator. */
  message: string;
  /** Trying again cannot help. */
  lasting: boolean;
}

/**
 * Postgres refusing this process (found in the error or what it wraps, as the ORM wraps the
 * driver's): a fault of DATABASE_URL or of the server, which one line says better than a
 * stack. Null for any other error.
 */
export function databaseRefusal(error: unknown, depth = 0): DatabaseRefusal | null {
  if (!(error instanceof Error) || depth > 5) return null;
  // The driver's errors, and the ORM's wrapping them, carry the server's severity and SQLSTATE.
  const code: unknown = 'code' in error ? error.code : undefined;
  if ('severity' in error && typeof code === 'string' && (LASTING.test(code) || PASSING.test(code))) {
    const lasting = LASTING.test(code);
    // A server still starting or out of connection slots is not a fault of DATABASE_URL.
    const hint = lasting ? 'Check DATABASE_URL.' : 'It passes: try again shortly.';
    return { message: `Postgres refused the connection: ${error.message} (SQLSTATE ${code}). ${hint}`, lasting };
  }
  return databaseRefusal(error.cause, depth + 1);
}
