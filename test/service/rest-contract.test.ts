import t from 'tap';
import { checkRestContract } from '../helpers/rest-contract.js';
import { useStack } from '../helpers/shared-stack.js';

/** The same contract as the embedded default, over NATS with separate processes. */
const stack = await useStack(t);

t.test('the REST contract over NATS', async (t) => {
  const ws = await stack.bootstrap({ defaultCountry: 'US' });
  await checkRestContract(t, stack.baseUrl, {
    writer: await stack.token(ws.workspace.id, ['contacts:write']),
    reader: await stack.token(ws.workspace.id, ['contacts:read']),
    workspaceId: ws.workspace.id,
  });
});
