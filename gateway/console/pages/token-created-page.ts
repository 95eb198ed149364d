import type { ApiToken } from '../../../shared/contracts/tokens.js';
import { html, type Html } from '../../pages/html.js';
import { consoleLayout } from '../console-layout.js';
import type { ConsoleSession } from '../console-session.js';
import { copyBlock } from '../copy-block.js';
import { when } from '../format.js';
import { noticeLine } from '../notice.js';
import { workspacePath } from '../workspace-url.js';

/** The one time the plaintext is shown. A reload goes to the token list, not back here. */
export function tokenCreatedPage(session: ConsoleSession, token: ApiToken & { token: string }, baseUrl: string): Html {
  const list = workspacePath(session, '/tokens');
  return consoleLayout({
    session,
    section: 'tokens',
    title: 'Token created',
    replaceUrl: list,
    body: html`
      ${noticeLine(html`<strong>Copy this token now. You will not see it again:</strong> only a hash of it is stored.`)}
      ${copyBlock('new-token', 'Token', token.token)}
      <dl class="facts">
        <dt>Name</dt><dd>${token.name}</dd>
        <dt>Scopes</dt><dd>${token.scopes.map((s) => html`<code class="scope">${s}</code> `)}</dd>
        <dt>Expires</dt><dd>${when(token.expires_at, session, 'Does not expire')}</dd>
      </dl>
      <h2>Use it</h2>
      <p>Keep it in an environment variable, never in code, and send it as a bearer token:</p>
      <pre class="example">export CRM_TOKEN=…   # the token above
curl -H "Authorization: Bearer $CRM_TOKEN" ${baseUrl}/v1/me</pre>
      <p><a href="${list}">Back to API tokens</a></p>`,
  });
}
