import { grantsScope, type Scope } from '../../shared/auth/scopes.js';
import { html, type Html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import type { ConsoleSession } from './console-session.js';
import { workspacePath } from './workspace-url.js';

export type ConsoleSection = 'overview' | 'contacts' | 'deals' | 'activity' | 'connect' | 'agents' | 'tokens' | 'webhooks' | 'members' | 'account';

interface NavItem {
  section: ConsoleSection;
  path: string;
  label: string;
  /** Shown only to members who may use it; the routes check again. */
  visible: (session: ConsoleSession) => boolean;
}

/** Whether the member's permissions in this workspace allow `scope`. */
export function may(session: ConsoleSession, scope: Scope): boolean {
  return grantsScope(session.scopes, scope);
}

export const NAV: NavItem[] = [
  { section: 'overview', path: '', label: 'Overview', visible: () => true },
  { section: 'contacts', path: '/contacts', label: 'Contacts', visible: (s) => may(s, 'contacts:read') },
  { section: 'deals', path: '/deals', label: 'Deals', visible: (s) => may(s, 'deals:read') },
  { section: 'activity', path: '/activity', label: 'Activity', visible: (s) => may(s, 'events:read') },
  { section: 'connect', path: '/connect', label: 'Connect an agent', visible: () => true },
  { section: 'agents', path: '/agents', label: 'Connected agents', visible: () => true },
  { section: 'tokens', path: '/tokens', label: 'API tokens', visible: (s) => s.isAdministrator },
  { section: 'webhooks', path: '/webhooks', label: 'Webhooks', visible: (s) => s.isAdministrator },
  { section: 'members', path: '/members', label: 'Members', visible: (s) => s.isAdministrator },
];

/** A GET form, so switching works without script; /assets/console.js submits it on change. */
function workspaceSwitcher(session: ConsoleSession, section: ConsoleSection | null): Html {
  if (session.memberships.length < 2) return html``;
  return html`<form class="switcher" method="get" action="/console/switch">
    <label for="workspace-switcher">Workspace</label>
    <select id="workspace-switcher" name="workspace" data-autosubmit>
      ${session.memberships.map(
        (m) => html`<option value="${m.workspace_id}" ${m.workspace_id === session.membership?.workspace_id ? 'selected' : ''}>${m.organization_name} / ${m.workspace_name}</option>`,
      )}
    </select>
    ${section ? html`<input type="hidden" name="section" value="${section}">` : ''}
    <button class="secondary" type="submit">Switch</button>
  </form>`;
}

/**
 * Every console page: a header with the workspace, the switcher and the user; the sections; the page.
 * `section` is the one the page belongs to, marked as current; null for a page of none (an error elsewhere).
 */
export function consoleLayout(options: { session: ConsoleSession; section: ConsoleSection | null; title: string; body: Html; replaceUrl?: string }): Html {
  const { session, section } = options;
  const here = session.membership;
  const nav = here
    ? NAV.filter((item) => item.visible(session)).map(
        (item) => html`<a href="${workspacePath(session, item.path)}" ${item.section === section ? html`aria-current="page"` : ''}>${item.label}</a>`,
      )
    : [];
  return layout({
    title: options.title,
    wide: true,
    scripts: ['/assets/console.js'],
    header: html`
      <header class="console-header">
        <div>
          <p class="product">Workspace CRM console</p>
          ${here ? html`<p class="workspace-name"><strong>${here.workspace_name}</strong> <span class="muted">${here.organization_name}</span></p>` : ''}
        </div>
        ${workspaceSwitcher(session, section)}
        <div class="who">
          <span>${session.user.email}</span>
          <a href="/console/account" ${section === 'account' ? html`aria-current="page"` : ''}>Account</a>
          <form method="post" action="/sign-out" class="inline-form">
            <input type="hidden" name="csrf_token" value="${session.csrf}">
            <button class="link" type="submit">Sign out</button>
          </form>
        </div>
      </header>
      ${nav.length > 0 ? html`<nav aria-label="Console sections">${nav}</nav>` : ''}`,
    body: html`
      ${options.replaceUrl ? html`<div hidden data-replace-url="${options.replaceUrl}"></div>` : ''}
      <h1>${options.title}</h1>
      ${options.body}`,
  });
}
