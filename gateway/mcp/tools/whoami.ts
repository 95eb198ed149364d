import { WhoAmI, whoAmI } from '../../../shared/contracts/whoami.js';
import { defineTool } from '../tool.js';

export const whoamiTool = defineTool({
  name: 'whoami',
  title: 'Who am I',
  description:
    'The workspace and organization this connection acts in, who authorized it, its scopes, the kind of credential, and whether it reads company-wide or only what its user owns.',
  op: whoAmI,
  input: {},
  output: WhoAmI,
});
