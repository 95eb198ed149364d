import { MCP_SERVERS } from '../../shared/auth/mcp-servers.js';
import { SCOPE_DESCRIPTIONS } from '../../shared/auth/scopes.js';
import type { ConsentView } from '../../shared/contracts/oauth.js';
import { html, type Html } from './html.js';
import { layout } from './layout.js';

/** The consent form's field naming the workspace whose permissions the page showed when Approve was pressed. */
export const SHOWN_WORKSPACE_FIELD = 'shown_workspace';

/**
 * Names the client (as it registered itself, or as its metadata document names it with
 * the host that publishes that document, and the host it redirects to), the
 * workspace (text for one, a dropdown for several), and what the grant allows in each
 * workspace. The list follows the dropdown with /assets/consent.js, which also keeps
 * the shown_workspace field in step. Without script, the list of `shown` (else the
 * first workspace) shows, "Show permissions" reloads the page for the chosen one, and
 * an Approve for a workspace other than the shown one only shows its list.
 */
export function consentPage(view: ConsentView, csrf: string, options: { error?: string; notice?: string; shown?: string } = {}): Html {
  const { error, notice } = options;
  const server = MCP_SERVERS[view.request.server];
  const clientName = view.client.name ?? 'An unnamed client';
  const shownWorkspace = view.workspaces.find((w) => w.id === options.shown) ?? view.workspaces[0];
  const workspaceLabel = (w: ConsentView['workspaces'][number]) => `${w.organization} / ${w.name}`;

  const chooser =
    view.workspaces.length === 1 && shownWorkspace
      ? html`<p>Workspace: <strong id="workspace-name">${workspaceLabel(shownWorkspace)}</strong></p>
          <input type="hidden" name="workspace_id" value="${shownWorkspace.id}">`
      : html`<label for="workspace">Workspace</label>
          <select id="workspace" name="workspace_id">
            ${view.workspaces.map((w) => html`<option value="${w.id}" ${w.id === shownWorkspace?.id ? 'selected' : ''}>${workspaceLabel(w)}</option>`)}
          </select>
          <noscript><div class="actions"><button class="secondary" type="submit" name="decision" value="review">Show permissions</button></div></noscript>`;

  const sections = view.workspaces.map(
    (w) => html`
      <section data-workspace="${w.id}" ${w.id === shownWorkspace?.id ? '' : 'hidden'} aria-labelledby="permissions-${w.id}">
        <h2 id="permissions-${w.id}">In ${w.name}, ${clientName} will be able to</h2>
        ${
          w.read_scopes.length === 0
            ? html`<p class="error">Your permissions in this workspace allow nothing on this server.</p>`
            : html`<ul class="scopes">${w.read_scopes.map((s) => html`<li data-scope="${s}">${SCOPE_DESCRIPTIONS[s]}</li>`)}</ul>`
        }
        ${
          w.write_scopes.length > 0
            ? html`<label class="inline"><input type="checkbox" name="allow_changes" value="${w.id}">
                Allow changes: ${w.write_scopes.map((s) => SCOPE_DESCRIPTIONS[s].toLowerCase()).join('; ')}</label>`
            : html`<p class="muted">This connection is read-only. To allow changes later, remove the server from your client,
                add it again, and allow changes here.</p>`
        }
      </section>`,
  );

  return layout({
    title: `Connect ${clientName}`,
    scripts: ['/assets/consent.js'],
    body: html`<div class="consent">
      <h1>Connect ${clientName} to ${server.title}</h1>
      <p><strong>${clientName}</strong> at <strong>${view.client.redirect_host}</strong> wants to use the
        ${server.title} tool server (${server.description.toLowerCase()}) as <strong>${view.user.email}</strong>.</p>
      <p id="client-name-note" class="muted">${
        view.client.name === null ? 'The client gave no name.' : `“${clientName}” is the name the client gave itself; Workspace CRM has not verified it, whatever it says.`
      } Approving sends you back to ${view.client.redirect_host}.</p>
      ${
        view.client.metadata_host === null
          ? ''
          : html`<p id="client-publisher">This client describes itself in a document published by <strong>${view.client.metadata_host}</strong>.</p>`
      }
      ${error ? html`<p class="error" role="alert">${error}</p>` : ''}
      ${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
      ${
        view.workspaces.length === 0
          ? html`<p class="error">You are not a member of any workspace.</p>`
          : html`<form method="post" action="/oauth/consent">
              <input type="hidden" name="csrf_token" value="${csrf}">
              <input type="hidden" name="request" value="${view.request.id}">
              <input type="hidden" id="shown-workspace" name="${SHOWN_WORKSPACE_FIELD}" value="${shownWorkspace?.id ?? ''}">
              ${chooser}
              ${sections}
              <div class="actions">
                <button class="primary" type="submit" name="decision" value="approve">Approve</button>
                <button class="secondary" type="submit" name="decision" value="deny">Deny</button>
              </div>
            </form>`
      }
      <p class="muted">Signed in as ${view.user.email}. Only approve clients you recognise.</p></div>`,
  });
}

/**
 * Sends the decision once: a second click (a double click on Approve) would cancel the first
 * request's navigation, so its redirect with the code never reached the client and the page
 * showed the answered request as expired. Also shows the permissions of the workspace chosen in
 * the dropdown, and says which it showed.
 */
export const CONSENT_SCRIPT = `
(function () {
  var form = document.querySelector('form[action="/oauth/consent"]');
  if (form) {
    // Not by disabling the buttons: a disabled submitter would leave the decision out of the form.
    form.addEventListener('submit', function (event) {
      if (form.hasAttribute('data-sent')) { event.preventDefault(); return; }
      form.setAttribute('data-sent', '');
      form.setAttribute('aria-busy', 'true');
    });
    // Back to this page from the history: the form may be sent again (the server says whether it is still open).
    window.addEventListener('pageshow', function () { form.removeAttribute('data-sent'); form.removeAttribute('aria-busy'); });
  }
  var select = document.getElementById('workspace');
  if (!select) return;
  function show() {
    var sections = document.querySelectorAll('[data-workspace]');
    for (var i = 0; i < sections.length; i++) sections[i].hidden = sections[i].getAttribute('data-workspace') !== select.value;
    document.getElementById('shown-workspace').value = select.value;
  }
  select.addEventListener('change', show);
  show();
})();
`;
