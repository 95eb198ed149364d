import type { McpServerDefinition } from '../../../shared/auth/mcp-servers.js';
import { scopesOn } from '../../../shared/bus/operation.js';
import { getContact } from '../../../shared/contracts/contacts.js';
import { getDeal } from '../../../shared/contracts/deals.js';
import type { ResourceDefinition } from '../mcp-features.js';
import { dealForAgents } from '../tools/crm/deal-for-agents.js';
import { serverScopes } from '../tool.js';

/** A contact and a deal by URI, for clients that attach records as context. */
export function recordResources(server: McpServerDefinition): ResourceDefinition[] {
  return [
    {
      name: 'contact',
      title: 'Contact',
      description: 'One contact (con_…) with its custom fields.',
      uriTemplate: 'crm://contacts/{id}',
      scopes: scopesOn(getContact, serverScopes(server)),
      read: ({ id }, call) => call.run(getContact, { id: id! }),
    },
    {
      name: 'deal',
      title: 'Deal',
      description: 'One deal (deal_…): pipeline, stage, amount, contact and custom fields.',
      uriTemplate: 'crm://deals/{id}',
      scopes: scopesOn(getDeal, serverScopes(server)),
      // As get_deal gives it: the names an agent would otherwise read with a call each.
      read: async ({ id }, call) => dealForAgents(await call.run(getDeal, { id: id! }), call),
    },
  ];
}
