import { ApiToken, createToken, getToken, listTokens, revokeToken } from '../../../../shared/contracts/tokens.js';
import { defineEndpoint } from '../../../api/endpoint.js';
import { listOf } from '../../../api/list-envelope.js';
import { CreateTokenBody, ListTokensQuery, RevokeTokenQuery, TokenIdParams } from './validators.js';

const tag = 'Tokens';

export const listTokensEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/tokens',
  operationId: 'listTokens',
  summary: 'List API tokens',
  description: 'Tokens of the workspace; never their secrets, only a display hint.',
  tag,
  op: listTokens,
  query: ListTokensQuery,
  response: listOf(ApiToken, 'TokenList'),
  status: 200,
  errors: ['invalid_cursor', 'forbidden'],
});

export const createTokenEndpoint = defineEndpoint({
  method: 'post',
  path: '/v1/tokens',
  operationId: 'createToken',
  summary: 'Create an API token',
  description:
    'The secret is in this response only, and only its hash is stored. A token can grant only scopes it holds itself (another is a 403 missing_scope naming it in required_scope), and a token created by a token expires no later than it (without expires_at it takes the parent\'s expiry; a later one is a 400). No Idempotency-Key: the response holds a secret that is never stored.',
  tag,
  op: createToken,
  body: CreateTokenBody,
  status: 201,
  errors: ['forbidden'],
  location: (token) => `/v1/tokens/${token.id}`,
});

export const revokeTokenEndpoint = defineEndpoint({
  method: 'delete',
  path: '/v1/tokens/{id}',
  operationId: 'revokeToken',
  summary: 'Revoke an API token',
  description:
    'Gateways refuse it within seconds. Revoking again keeps the first revocation time. With revoke_children=true, the tokens it created (parent_id), and theirs, are revoked with it.',
  tag,
  op: revokeToken,
  params: TokenIdParams,
  query: RevokeTokenQuery,
  status: 200,
  errors: ['not_found', 'forbidden'],
});

export const getTokenEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/tokens/{id}',
  operationId: 'getToken',
  summary: 'Retrieve an API token',
  description: 'Revoked or not; never its secret.',
  tag,
  op: getToken,
  params: TokenIdParams,
  status: 200,
  errors: ['not_found', 'forbidden'],
});

export const tokenEndpoints = [listTokensEndpoint, createTokenEndpoint, getTokenEndpoint, revokeTokenEndpoint];
