import type { Selectable } from 'kysely';
import type { ApiToken as ApiTokenResource } from '../../../shared/contracts/tokens.js';
import { isoTimestamp, isoTimestampOrNull, type CrmDatabase } from '../../../shared/db/sql.js';

export type TokenRow = Selectable<CrmDatabase['api_tokens']>;

/** Never includes the hash; the plaintext exists only in the create reply. */
export function toTokenResource(t: TokenRow): ApiTokenResource {
  return {
    object: 'token',
    id: t.id,
    name: t.name,
    workspace_id: t.workspace_id,
    scopes: t.scopes,
    display_hint: t.display_hint,
    created_by: t.created_by,
    parent_id: t.parent_id,
    created_at: isoTimestamp(t.created_at),
    last_used_at: isoTimestampOrNull(t.last_used_at),
    expires_at: isoTimestampOrNull(t.expires_at),
    revoked_at: isoTimestampOrNull(t.revoked_at),
  };
}
