import { MCP_SERVERS } from '../../../shared/auth/mcp-servers.js';
import type { ConnectedAgent } from '../../../shared/contracts/grants.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { when } from '../format.js';
import { noticeLine } from '../notice.js';
import { listPager } from '../list-pager.js';
import { withQuery } from '../list-return.js';
import { workspacePath } from '../workspace-url.js';

export interface AgentsView {
  session: ConsoleSession;
  /** One page of the agents, newest first. */
  agents: ConnectedAgent[];
  /** The agents in all under the same filter. */
  total: number;
  nextCursor: string | null;
  /** The cursor of this page; none on the first. */
  cursor?: string | undefined;
  includeRevoked: boolean;
  notice?: string;
}

function agentRow(session: ConsoleSession, agent: ConnectedAgent, back: Record<string, string>): Html {
  const name = agent.client_name ?? 'Unnamed client';
  return html`<tr>
    <td><strong>${name}</strong><br><span class="muted">redirects to ${agent.redirect_host}</span></td>
    <td>${MCP_SERVERS[agent.server].title}</td>
    <td>${agent.user.email}${agent.user.id === session.user.id ? html` <span class="muted">(you)</span>` : ''}</td>
    <td>${agent.allows_changes ? 'Reads and changes' : 'Read-only'}<br>${agent.scopes.map((s) => html`<code class="scope">${s}</code> `)}</td>
    <td>${when(agent.created_at, session)}</td>
    <td>${when(agent.last_used_at, session, 'Not yet')}</td>
    <td>${
      agent.revoked_at
        ? html`Revoked ${when(agent.revoked_at, session)}`
        : html`<a href="${withQuery(workspacePath(session, `/agents/${agent.id}/revoke`), back)}" aria-label="Revoke ${name} (${agent.user.email})">Revoke</a>`
    }</td>
  </tr>`;
}

export function agentsPage(view: AgentsView): Html {
  const base = workspacePath(view.session, '/agents');
  const filters: Record<string, string> = view.includeRevoked ? { revoked: '1' } : {};
  // A row's Revoke comes back to this page, with its filter.
  const back = view.cursor ? { ...filters, cursor: view.cursor } : filters;
  const noun = view.includeRevoked ? 'agent' : 'connected agent';
  return consoleLayout({
    session: view.session,
    section: 'agents',
    title: 'Connected agents',
    body: html`
      <p class="muted">${
        view.session.isAdministrator
          ? 'Every agent that a member of this workspace connected through the browser sign-in. You can revoke any of them.'
          : 'The agents you connected to this workspace through the browser sign-in.'
      } A revoked agent stops working within seconds.</p>
      ${noticeLine(view.notice)}
      <p><a href="${view.includeRevoked ? base : `${base}?revoked=1`}">${view.includeRevoked ? 'Hide revoked agents' : 'Show revoked agents too'}</a></p>
      ${view.total > 0 ? html`<p role="status">${view.total === 1 ? `1 ${noun}` : `${view.total} ${noun}s`}, newest first.</p>` : ''}
      ${
        view.agents.length === 0
          ? view.cursor
            ? html`<p>No agents on this page.</p>`
            : html`<p>No agents are connected. <a href="${workspacePath(view.session, '/connect')}">Connect one</a>.</p>`
          : html`<div class="table-scroll"><table>
              <caption class="sr-only">${view.includeRevoked ? 'Agents, revoked ones too' : 'Connected agents'}</caption>
              <thead><tr><th scope="col">Client</th><th scope="col">Server</th><th scope="col">User</th><th scope="col">Access</th>
                <th scope="col">Connected</th><th scope="col">Last used</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
              <tbody>${view.agents.map((a) => agentRow(view.session, a, back))}</tbody>
            </table></div>`
      }
      ${listPager({ base, filters, nextCursor: view.nextCursor, onLaterPage: view.cursor !== undefined, next: 'More agents' })}`,
  });
}
