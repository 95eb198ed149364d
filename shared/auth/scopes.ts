import { z } from 'zod';
import { parseNameList } from './parse-name-list.js';

/** The scopes a credential can hold. */
export const SCOPES = [
  'contacts:read',
  'contacts:write',
  'deals:read',
  'deals:write',
  'schema:read',
  'schema:write',
  'studio:read',
  'studio:write',
  'tokens:write',
  'events:read',
  'webhooks:write',
] as const;

export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'contacts:read': 'Read contacts and their notes',
  'contacts:write': 'Create and change contacts, and write their notes',
  'deals:read': 'Read deals, their notes and pipelines',
  'deals:write': 'Create and change deals, and write their notes',
  'schema:read': 'Read custom fields, pipelines and stages',
  'schema:write': "Change custom fields, pipelines and stages, and the workspace's time zone and default country",
  'studio:read': 'Use the Studio tool server to read the workspace design',
  'studio:write': 'Use the Studio tool server to change the workspace design',
  'tokens:write': 'Create, list and revoke API tokens',
  'events:read': 'Read the change history (only of the records the credential may read)',
  'webhooks:write': 'Create, change and delete webhook endpoints, and see their deliveries (an endpoint receives only events the credential may read: with events:read)',
};

/**
 * The workspace's design (custom fields, pipelines and stages) is reached two ways: REST with
 * schema:*, the Studio tool server with studio:*. Declared once, for every operation on it and
 * for what a member may grant, so the two surfaces cannot drift apart.
 */
export const DESIGN_READ_SCOPES = ['schema:read', 'studio:read'] as const satisfies readonly Scope[];
export const DESIGN_WRITE_SCOPES = ['schema:write', 'studio:write'] as const satisfies readonly Scope[];

/** A `:write` scope implies its `:read`. */
export function grantsScope(held: readonly Scope[], needed: Scope): boolean {
  if (held.includes(needed)) return true;
  if (needed.endsWith(':read')) {
    const write = needed.replace(/:read$/, ':write') as Scope;
    return held.includes(write);
  }
  return false;
}

/**
 * The scope to name in a 403 when none of `allowed` is held: the first one, unless the
 * credential holds a related scope (e.g. studio:read while studio:write is needed).
 */
export function missingScope(held: readonly Scope[], allowed: readonly Scope[]): Scope | null {
  if (allowed.length === 0 || allowed.some((s) => grantsScope(held, s))) return null;
  const family = (s: Scope) => s.split(':')[0];
  return allowed.find((s) => held.some((h) => family(h) === family(s))) ?? (allowed[0] as Scope);
}

/** Parses a comma- or space-separated scope list; unknown names are reported, not dropped. */
export function parseScopeList(text: string): { scopes: Scope[]; unknown: string[] } {
  const { values, unknown } = parseNameList(text, Scope);
  return { scopes: values, unknown };
}
