import { getWorkspaceSettings, updateWorkspaceSettings } from '../../../../shared/contracts/workspace-settings.js';
import { defineEndpoint } from '../../../api/endpoint.js';

const tag = 'Workspace';

export const getWorkspaceEndpoint = defineEndpoint({
  method: 'get',
  path: '/v1/workspace',
  operationId: 'getWorkspace',
  summary: "Retrieve the workspace's settings",
  description: 'Its name, default country (for phones written without a country code) and time zone (for days and relative ranges in filters). Needs only a valid token.',
  tag,
  op: getWorkspaceSettings,
  status: 200,
});

export const updateWorkspaceEndpoint = defineEndpoint({
  method: 'patch',
  path: '/v1/workspace',
  operationId: 'updateWorkspace',
  summary: "Change the workspace's settings",
  description: 'Only the settings given change. time_zone takes an IANA name such as Europe/Paris; an unknown name is a 400. Needs schema:write.',
  tag,
  op: updateWorkspaceSettings,
  body: updateWorkspaceSettings.input,
  status: 200,
});

export const workspaceEndpoints = [getWorkspaceEndpoint, updateWorkspaceEndpoint];
