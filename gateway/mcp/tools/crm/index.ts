import { MCP_SERVERS } from '../../../../shared/auth/mcp-servers.js';
import { toolCatalogue, type ToolSpec } from '../../tool.js';
import { whoamiTool } from '../whoami.js';
import { addNoteTool } from './add-note.js';
import { countContactsTool } from './count-contacts.js';
import { countDealsTool } from './count-deals.js';
import { describeSchemaTool } from './describe-schema.js';
import { findContactsTool } from './find-contacts.js';
import { findDealsTool } from './find-deals.js';
import { getContactTool } from './get-contact.js';
import { getDealTool } from './get-deal.js';
import { listNotesTool } from './list-notes.js';
import { recentChangesTool } from './recent-changes.js';
import { createContactTool, createDealTool, updateContactTool, updateDealTool } from './write-tools.js';

/** The CRM server's catalogue. */
export const CRM_TOOLS = toolCatalogue(MCP_SERVERS.crm, [
  whoamiTool,
  countContactsTool,
  describeSchemaTool,
  findContactsTool,
  getContactTool,
  findDealsTool,
  countDealsTool,
  getDealTool,
  recentChangesTool,
  listNotesTool,
  createContactTool,
  updateContactTool,
  createDealTool,
  updateDealTool,
  addNoteTool,
] as unknown as readonly ToolSpec[]);
