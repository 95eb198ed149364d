import { PERMISSION_DESCRIPTIONS, VISIBILITY_DESCRIPTIONS } from '../../../shared/auth/permissions.js';
import type { WorkspaceSettings } from '../../../shared/contracts/workspace-settings.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';

export interface OverviewFigures {
  contacts: number | null;
  pipelines: number | null;
  agents: number;
  tokens: number | null;
  members: number | null;
}

function figure(label: string, value: number | null, href: string, more = false): Html {
  if (value === null) return html``;
  return html`<li><a href="${href}"><span class="figure">${value}${more ? '+' : ''}</span> ${label}</a></li>`;
}

export function overviewPage(session: ConsoleSession, figures: OverviewFigures, tokensTruncated: boolean, settings: WorkspaceSettings, notice?: string): Html {
  const membership = session.membership;
  const path = (p: string) => workspacePath(session, p);
  return consoleLayout({
    session,
    section: 'overview',
    title: 'Overview',
    body: html`
      ${noticeLine(notice)}
      <ul class="figures">
        ${figure(figures.contacts === 1 ? 'contact' : 'contacts', figures.contacts, path('/contacts'))}
        ${figure(figures.pipelines === 1 ? 'pipeline' : 'pipelines', figures.pipelines, path('/deals'))}
        ${figure(figures.agents === 1 ? 'connected agent' : 'connected agents', figures.agents, path('/agents'))}
        ${figure(figures.tokens === 1 ? 'active API token' : 'active API tokens', figures.tokens, path('/tokens'), tokensTruncated)}
        ${figure(figures.members === 1 ? 'member' : 'members', figures.members, path('/members'))}
      </ul>
      <h2>Your access to ${membership?.workspace_name ?? 'this workspace'}</h2>
      <ul>${(membership?.permissions ?? []).map((p) => html`<li>${PERMISSION_DESCRIPTIONS[p]}</li>`)}</ul>
      <p>Records you see: ${membership ? VISIBILITY_DESCRIPTIONS[membership.visibility].toLowerCase() : ''}.</p>
      <p id="workspace-time-zone">Time zone: ${settings.time_zone}. Days and ranges such as last week in filters are read in it.
        ${session.isAdministrator ? html`<a href="${path('/settings')}">Change the workspace settings</a>` : ''}</p>
      <h2>Next steps</h2>
      <ul>
        <li><a href="${path('/connect')}">Connect an agent</a> to the CRM and Studio tool servers.</li>
        ${session.isAdministrator ? html`<li><a href="${path('/tokens')}">Create an API token</a> for a program or a non-interactive agent.</li>` : ''}
        ${session.isAdministrator ? html`<li><a href="${path('/members')}">Invite a member</a>.</li>` : ''}
        ${session.isAdministrator ? html`<li>Add or archive the <a href="${path('/fields')}">custom fields</a> of contacts and deals.</li>` : ''}
        <li>Read the <a href="/docs">REST API reference</a>.</li>
      </ul>`,
  });
}
