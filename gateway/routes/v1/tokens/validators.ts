import { z } from 'zod';
import { BooleanQuery, Cursor, PageLimitQuery } from '../../../../shared/contracts/common.js';
import { CreateTokenInput } from '../../../../shared/contracts/tokens.js';
import { pathId } from '../../../api/path-id.js';

export const TokenIdParams = z.strictObject({ id: pathId('tok_') });

export const ListTokensQuery = z.strictObject({
  limit: PageLimitQuery,
  cursor: Cursor.optional(),
  include_revoked: BooleanQuery.optional().describe('Also list revoked tokens'),
});

export const CreateTokenBody = CreateTokenInput;

export const RevokeTokenQuery = z.strictObject({
  revoke_children: BooleanQuery.optional().describe('Also revoke every token this token created, and theirs, in the same transaction'),
});
