import { MCP_SERVERS } from '../../../../shared/auth/mcp-servers.js';
import { toolCatalogue, type ToolSpec } from '../../tool.js';
import { whoamiTool } from '../whoami.js';
import { archiveCustomFieldTool, createCustomFieldTool, listCustomFieldsTool, updateCustomFieldTool } from './custom-field-tools.js';
import { archiveStageTool, createPipelineTool, createStageTool, getPipelineTool, listPipelinesTool, updatePipelineTool, updateStageTool } from './pipeline-tools.js';

/** The Studio server's catalogue: the workspace's design. */
export const STUDIO_TOOLS = toolCatalogue(MCP_SERVERS.studio, [
  whoamiTool,
  listCustomFieldsTool,
  createCustomFieldTool,
  updateCustomFieldTool,
  archiveCustomFieldTool,
  listPipelinesTool,
  getPipelineTool,
  createPipelineTool,
  updatePipelineTool,
  createStageTool,
  updateStageTool,
  archiveStageTool,
] as unknown as readonly ToolSpec[]);
