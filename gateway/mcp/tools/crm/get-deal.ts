import { z } from 'zod';
import { Deal, getDeal } from '../../../../shared/contracts/deals.js';
import { defineTool } from '../../tool.js';

export const getDealTool = defineTool({
  name: 'get_deal',
  title: 'Get a deal',
  description: 'One deal by id (deal_…): its pipeline and stage, amount, contact, owner and custom fields.',
  op: getDeal,
  input: { id: z.string().max(64).describe('deal_…') },
  output: Deal,
});
