import { html, type Html } from './html.js';
import { layout } from './layout.js';

export function signInPage(options: { csrf: string; next: string; email?: string; error?: string; purpose?: string }): Html {
  return layout({
    title: 'Sign in',
    body: html`
      <h1>Sign in</h1>
      <p class="muted">${options.purpose ?? 'to Workspace CRM'}</p>
      ${options.error ? html`<p class="error" role="alert" id="sign-in-error">${options.error}</p>` : ''}
      <form method="post" action="/sign-in" ${options.error ? html`aria-describedby="sign-in-error"` : ''}>
        <input type="hidden" name="csrf_token" value="${options.csrf}">
        <input type="hidden" name="next" value="${options.next}">
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required autofocus value="${options.email ?? ''}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <div class="actions"><button class="primary" type="submit">Sign in</button></div>
      </form>`,
  });
}
