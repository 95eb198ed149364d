import type { ToolDefinition } from '../../tool.js';
import { whoamiTool } from '../whoami.js';
import { countContactsTool } from './count-contacts.js';
import { describeSchemaTool } from './describe-schema.js';
import { findContactsTool } from './find-contacts.js';
import { findDealsTool } from './find-deals.js';
import { getContactTool } from './get-contact.js';
import { createContactTool, createDealTool, updateContactTool, updateDealTool } from './write-tools.js';

/** The CRM server's catalogue. */
export const CRM_TOOLS = [
  whoamiTool,
  countContactsTool,
  describeSchemaTool,
  findContactsTool,
  getContactTool,
  findDealsTool,
  createContactTool,
  updateContactTool,
  createDealTool,
  updateDealTool,
] as unknown as readonly ToolDefinition[];
