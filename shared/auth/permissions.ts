import { z } from 'zod';
import { parseNameList } from './parse-name-list.js';
import { DESIGN_READ_SCOPES, DESIGN_WRITE_SCOPES, type Scope } from './scopes.js';

/** What a membership allows in its workspace. */
export const PERMISSIONS = ['contacts.read', 'contacts.write', 'deals.read', 'deals.write', 'configuration'] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

/**
 * A member's permissions as given in a write: at least one, kept as a set in PERMISSIONS'
 * order, so the same grant is stored one way (a repeat or another order is no change, and
 * records no event of one).
 */
export const GrantedPermissions = z
  .array(Permission)
  .min(1, 'choose at least one permission')
  .transform((given) => PERMISSIONS.filter((p) => given.includes(p)));

export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  'contacts.read': 'Read contacts',
  'contacts.write': 'Create and change contacts',
  'deals.read': 'Read deals',
  'deals.write': 'Create and change deals',
  configuration: 'Configuration: custom fields, pipelines, API tokens, webhooks and members',
};

export const Visibility = z.enum(['all', 'owned']);

export const VISIBILITY_DESCRIPTIONS: Record<Visibility, string> = {
  all: 'Every record of the workspace',
  owned: 'Only the records they own',
};
export type Visibility = z.infer<typeof Visibility>;

/** Scopes each permission lets its holder grant to a token or an agent. */
const SCOPES_BY_PERMISSION: Record<Permission, readonly Scope[]> = {
  'contacts.read': ['contacts:read', 'events:read'],
  'contacts.write': ['contacts:read', 'contacts:write', 'events:read'],
  'deals.read': ['deals:read', 'events:read'],
  'deals.write': ['deals:read', 'deals:write', 'events:read'],
  // Administrators design the workspace and manage its credentials and integrations.
  configuration: [...DESIGN_READ_SCOPES, ...DESIGN_WRITE_SCOPES, 'tokens:write', 'events:read', 'webhooks:write'],
};

/**
 * Reading the schema (custom fields, pipelines) is part of reading contacts or deals,
 * so anyone who may read either may also grant `schema:read` and `studio:read`.
 */
export function grantableScopes(permissions: readonly Permission[]): Scope[] {
  const out = new Set<Scope>();
  for (const p of permissions) for (const s of SCOPES_BY_PERMISSION[p]) out.add(s);
  if (permissions.some((p) => p === 'contacts.read' || p === 'contacts.write' || p === 'deals.read' || p === 'deals.write')) {
    for (const s of DESIGN_READ_SCOPES) out.add(s);
  }
  return [...out];
}

export const ADMIN_PERMISSIONS: Permission[] = [...PERMISSIONS];

export function parsePermissionList(text: string): { permissions: Permission[]; unknown: string[] } {
  const { values, unknown } = parseNameList(text, Permission);
  return { permissions: values, unknown };
}
