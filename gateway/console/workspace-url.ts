import type { ConsoleSession } from './console-session.js';

/** A page of a workspace in the console, e.g. workspaceUrl(id, '/tokens'). */
export function workspaceUrl(workspaceId: string, path = ''): string {
  return `/console/w/${workspaceId}${path}`;
}

/** A page of the workspace the session is looking at. */
export function workspacePath(session: ConsoleSession, path = ''): string {
  return workspaceUrl(session.membership?.workspace_id ?? '', path);
}
