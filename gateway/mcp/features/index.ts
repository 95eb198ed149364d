import { MCP_SERVERS } from '../../../shared/auth/mcp-servers.js';
import type { McpServerKey } from '../../../shared/contracts/oauth.js';
import type { McpFeatures } from '../mcp-features.js';
import { CRM_PROMPTS } from './crm-prompts.js';
import { recordResources } from './record-resources.js';
import { schemaResources } from './schema-resources.js';

/** What each server offers beside its tools: the CRM server its records, design and prompts; Studio the design. */
export const FEATURES: Record<McpServerKey, McpFeatures> = {
  crm: { resources: [...schemaResources(MCP_SERVERS.crm), ...recordResources(MCP_SERVERS.crm)], prompts: CRM_PROMPTS },
  studio: { resources: schemaResources(MCP_SERVERS.studio), prompts: [] },
};
