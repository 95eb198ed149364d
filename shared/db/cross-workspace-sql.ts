import type { Kysely } from 'kysely';
import type { EntityManager } from './orm.js';
import type { CrmDatabase } from './sql.js';

/**
 * Typed SQL over every table with no workspace bound: the escape hatch for the few
 * queries that must span workspaces or run before the workspace is known (a credential
 * looked up by its hash, a user's memberships, maintenance). `reason` says why at the
 * call site; the guard test allows it only in the files it lists.
 */
export function crossWorkspaceSql(em: EntityManager, _reason: string): Kysely<CrmDatabase> {
  return em.getKysely<CrmDatabase>();
}
