import type { EntityManager } from '../../../shared/db/orm.js';

/** Case-insensitive lookups by name, without LIKE (a name may contain % or _). */
export async function organizationIdByName(em: EntityManager, name: string): Promise<string | null> {
  const rows = await em.execute<{ id: string }[]>('select id from organizations where lower(name) = lower(?)', [name]);
  return rows[0]?.id ?? null;
}

export async function workspaceIdsByName(em: EntityManager, name: string, organizationId?: string): Promise<string[]> {
  const rows = organizationId
    ? await em.execute<{ id: string }[]>('select id from workspaces where organization_id = ? and lower(name) = lower(?)', [organizationId, name])
    : await em.execute<{ id: string }[]>('select id from workspaces where lower(name) = lower(?) order by created_at', [name]);
  return rows.map((r) => r.id);
}
