import { SCOPE_DESCRIPTIONS, type Scope } from '../../../shared/auth/scopes.js';
import { addDays, formatLocalDate, localDateOf } from '../../../shared/time/zoned-day.js';
import { tokenExpired, type ApiToken } from '../../../shared/contracts/tokens.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { when } from '../format.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';
import { controlState } from '../form-refusal.js';
import { listPager } from '../list-pager.js';
import { withQuery } from '../list-return.js';

export interface TokenForm {
  name: string;
  scopes: string[];
  expires_on: string;
}

export interface TokensView {
  session: ConsoleSession;
  tokens: ApiToken[];
  /** Who created each token, in words: an e-mail, another token, or the command line. */
  creators: Map<string, string>;
  grantable: Scope[];
  includeRevoked: boolean;
  nextCursor: string | null;
  /** Past the first page of tokens. */
  onLaterPage: boolean;
  /** The cursor of this page, where a row's Revoke comes back to; none on the first. */
  cursor?: string | undefined;
  notice?: string;
  error?: string;
  /** The field the error is about (name, expires_at), marked on the form. */
  errorField?: string | undefined;
  form?: TokenForm;
}

function tokenRow(view: TokensView, token: ApiToken): Html {
  const back: Record<string, string> = { ...(view.includeRevoked ? { revoked: '1' } : {}), ...(view.cursor ? { cursor: view.cursor } : {}) };
  const revokeHref = withQuery(workspacePath(view.session, `/tokens/${token.id}/revoke`), back);
  return html`<tr>
    <td>${token.name}</td>
    <td><code>${token.display_hint}</code></td>
    <td>${token.scopes.map((s) => html`<code class="scope">${s}</code> `)}</td>
    <td>${token.created_by === null ? 'crm command line' : (view.creators.get(token.created_by) ?? token.created_by)}</td>
    <td>${when(token.created_at, view.session)}</td>
    <td data-column="last-used">${when(token.last_used_at, view.session, 'Never used')}</td>
    <td>${tokenExpired(token) ? html`Expired ${when(token.expires_at, view.session)}` : when(token.expires_at, view.session, 'Does not expire')}</td>
    <td>${token.revoked_at ? html`Revoked ${when(token.revoked_at, view.session)}` : html`<a href="${revokeHref}" aria-label="Revoke ${token.name}">Revoke</a>`}</td>
  </tr>`;
}

/** Back to the first page from a later one, and on to more tokens. */
function tokensPager(view: TokensView, base: string): Html {
  return listPager({ base, filters: view.includeRevoked ? { revoked: '1' } : {}, nextCursor: view.nextCursor, onLaterPage: view.onLaterPage, next: 'More tokens' });
}

export function tokensPage(view: TokensView): Html {
  const form = view.form ?? { name: '', scopes: [], expires_on: '' };
  const base = workspacePath(view.session, '/tokens');
  const refused = { field: view.errorField, errorId: 'create-error' };
  const tomorrow = formatLocalDate(addDays(localDateOf(Date.now(), view.session.timeZone), 1));
  return consoleLayout({
    session: view.session,
    section: 'tokens',
    title: 'API tokens',
    body: html`
      <p class="muted">Programs and non-interactive agents call the REST API and the tool servers with these tokens.
        A token acts for the workspace with the scopes it was given, whoever created it.</p>
      ${noticeLine(view.notice)}
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">${view.includeRevoked ? 'All tokens' : 'Active tokens'}</h2>
        <p><a href="${view.includeRevoked ? base : `${base}?revoked=1`}">${view.includeRevoked ? 'Hide revoked tokens' : 'Show revoked tokens too'}</a></p>
        ${
          view.tokens.length === 0
            ? html`<p>${view.onLaterPage ? 'No tokens on this page.' : 'No tokens yet.'}</p>`
            : html`<div class="table-scroll"><table aria-labelledby="tokens-heading">
                <thead><tr><th scope="col">Name</th><th scope="col">Token</th><th scope="col">Scopes</th><th scope="col">Created by</th>
                  <th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
                <tbody>${view.tokens.map((t) => tokenRow(view, t))}</tbody>
              </table></div>`
        }
        ${tokensPager(view, base)}
      </section>

      <section aria-labelledby="create-heading">
        <h2 id="create-heading">Create a token</h2>
        ${view.error ? html`<p class="error" role="alert" id="create-error">${view.error}</p>` : ''}
        <form method="post" action="${base}" ${view.error ? html`aria-describedby="create-error"` : ''}>
          <input type="hidden" name="csrf_token" value="${view.session.csrf}">
          <label for="token-name">Name</label>
          <input id="token-name" name="name" type="text" maxlength="100" required value="${form.name}" ${controlState(refused, 'name', 'token-name-help')}>
          <p id="token-name-help" class="muted">What uses it, e.g. "Website sign-up form".</p>
          <fieldset>
            <legend>Scopes</legend>
            <p class="muted">Only the scopes your permissions allow you to grant are offered. A write scope includes reading.</p>
            ${view.grantable.map(
              (scope) => html`<label class="inline"><input type="checkbox" name="scopes" value="${scope}" ${form.scopes.includes(scope) ? 'checked' : ''}>
                <code>${scope}</code> ${SCOPE_DESCRIPTIONS[scope]}</label>`,
            )}
          </fieldset>
          <label for="token-expiry">Expires on (optional)</label>
          <input id="token-expiry" name="expires_on" type="date" min="${tomorrow}" value="${form.expires_on}" ${controlState(refused, 'expires_at', 'token-expiry-help')}>
          <p id="token-expiry-help" class="muted">At 00:00 on that day in ${view.session.timeZone}, the workspace's time zone. Leave empty for a token that works until it is revoked.</p>
          <div class="actions"><button class="primary" type="submit">Create token</button></div>
        </form>
      </section>`,
  });
}
