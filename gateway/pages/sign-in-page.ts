import { html, type Html } from './html.js';
import { layout } from './layout.js';

/**
 * The sign-in form. A refusal names the field it is about (`errorField`, from the error's param): that field
 * gets the focus, is aria-invalid and has the reason as its description, so it is read out where the user
 * lands (a wrong password: the password box, not the e-mail box already filled in).
 */
export function signInPage(options: { csrf: string; next: string; email?: string; error?: string; errorField?: string; purpose?: string }): Html {
  const focus = options.error && options.errorField === 'password' ? 'password' : 'email';
  const state = (field: 'email' | 'password') =>
    html`${focus === field ? 'autofocus' : ''} ${options.error && focus === field ? html`aria-describedby="sign-in-error"` : ''} ${options.error && options.errorField === field ? html`aria-invalid="true"` : ''}`;
  return layout({
    title: 'Sign in',
    body: html`
      <h1>Sign in</h1>
      <p class="muted">${options.purpose ?? 'to Workspace CRM'}</p>
      ${options.error ? html`<p class="error" role="alert" id="sign-in-error">${options.error}</p>` : ''}
      <form method="post" action="/sign-in">
        <input type="hidden" name="csrf_token" value="${options.csrf}">
        <input type="hidden" name="next" value="${options.next}">
        <label for="email">E-mail</label>
        <input id="email" name="email" type="email" autocomplete="username" required ${state('email')} value="${options.email ?? ''}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required ${state('password')}>
        <div class="actions"><button class="primary" type="submit">Sign in</button></div>
      </form>`,
  });
}
