import { mcpClientConfig, MCP_SERVERS } from '../../../shared/auth/mcp-servers.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { copyBlock } from '../copy-block.js';
import { workspacePath } from '../workspace-url.js';

/** The client configuration for both tool servers, for people at a client and for programs. */
export function connectAgentPage(options: { session: ConsoleSession; baseUrl: string; tokenEnv: string; error?: string }): Html {
  const { session, baseUrl, tokenEnv } = options;
  const interactive = JSON.stringify(mcpClientConfig(baseUrl), null, 2);
  const headless = JSON.stringify(mcpClientConfig(baseUrl, tokenEnv), null, 2);
  return consoleLayout({
    session,
    section: 'connect',
    title: 'Connect an agent',
    body: html`
      <p>Two tool servers speak the Model Context Protocol (Streamable HTTP):</p>
      <ul>${Object.values(MCP_SERVERS).map((s) => html`<li><strong>${s.title}</strong> at <code>${baseUrl}${s.path}</code>: ${s.description.toLowerCase()}.</li>`)}</ul>

      <h2>Interactive clients</h2>
      <p>For a client that a person uses (a desktop or IDE assistant): add this to its <code>mcpServers</code> configuration.
        On first use it opens a browser to sign in; you choose the workspace and whether the agent may make changes.
        It then appears under <a href="${workspacePath(session, '/agents')}">Connected agents</a>.</p>
      ${copyBlock('config-interactive', 'Interactive configuration', interactive)}

      <h2>Non-interactive clients</h2>
      <p>For a cloud agent or a CI job, which cannot open a browser: the client sends an API token in a header that
        references an environment variable, so the token is never written into the configuration.
        ${session.isAdministrator ? html`Create the token under <a href="${workspacePath(session, '/tokens')}">API tokens</a>` : 'An administrator of this workspace creates the token'}
        with the scopes the agent needs, and you set the variable to it where the client runs.</p>
      <form method="get" action="${workspacePath(session, '/connect')}" class="inline-fields">
        <label for="token-env">Environment variable</label>
        <input id="token-env" name="token_env" type="text" value="${tokenEnv}" maxlength="100" pattern="[A-Za-z_][A-Za-z0-9_]*" ${options.error ? html`aria-describedby="token-env-error"` : ''}>
        <button class="secondary" type="submit">Update</button>
      </form>
      ${options.error ? html`<p class="error" role="alert" id="token-env-error">${options.error}</p>` : ''}
      ${copyBlock('config-token', 'Token configuration', headless)}
      <p class="muted">The same, from a shell: <code>crm mcp-config</code> and <code>crm mcp-config --token-env ${tokenEnv}</code>.</p>`,
  });
}
