import { describeToken } from '../../../../shared/contracts/tokens.js';
import { defineEndpoint } from '../../../api/endpoint.js';

export const getMeEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/me',
  operationId: 'getMe',
  summary: 'Describe the calling token',
  description: 'Its workspace, organization and scopes. Needs only a valid token.',
  tag: 'Tokens',
  op: describeToken,
  status: 200,
});
