import { WhoAmI, whoAmI } from '../../../shared/contracts/whoami.js';
import { defineTool, READ_ONLY } from '../tool.js';

export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'The workspace and organization this connection acts in, who authorized it, its scopes, the kind of credential, and whether it reads company-wide or only what its user owns.',
  scopes: [],
  writes: false,
  annotations: READ_ONLY,
  input: {},
  output: WhoAmI,
  run: async (_args, call) => call.run(whoAmI, {}),
});
