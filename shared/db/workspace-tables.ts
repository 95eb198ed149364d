import type { WorkspaceTable } from './sql.js';

/**
 * The workspace-owned tables at run time (the guard test scans worker code for them).
 * The type below fails to compile when the entities gain a workspace table missing here.
 */
export const WORKSPACE_TABLES = [
  'api_tokens',
  'contacts',
  'custom_fields',
  'deals',
  'events',
  'idempotency_keys',
  'memberships',
  'notes',
  'oauth_grants',
  'pipelines',
  'stages',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'webhook_endpoints',
] as const satisfies readonly WorkspaceTable[];

type Unlisted = Exclude<WorkspaceTable, (typeof WORKSPACE_TABLES)[number]>;
const _everyWorkspaceTableListed: [Unlisted] extends [never] ? true : Unlisted = true;
