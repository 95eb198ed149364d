import { getDeal } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';
import { idArgument } from '../id-argument.js';
import { dealForAgents, DealForAgents } from './deal-for-agents.js';

export const getDealTool = defineTool({
  name: 'get_deal',
  title: 'Get a deal',
  description: 'One deal by id (deal_…): its pipeline and stage with their names, amount, its contact (name, e-mail, phone), owner and custom fields.',
  op: getDeal,
  input: { id: idArgument('deal') },
  output: DealForAgents,
  result: (deal, _server, call) => dealForAgents(deal, call),
});
