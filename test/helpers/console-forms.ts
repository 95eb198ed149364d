import { field, FormBrowser } from './oauth-forms.js';

/**
 * The console driven with plain HTTP through its real forms (no Chromium): for tests that
 * only need what a form post does, not how the page looks.
 */
export interface ConsoleForms {
  browser: FormBrowser;
  /** Posts a console form of the workspace (path relative to it, e.g. '/members') with the session's CSRF token. */
  post(path: string, fields: Record<string, string | string[]>): Promise<Response>;
}

export async function signInToConsole(baseUrl: string, workspaceId: string, email: string, password: string): Promise<ConsoleForms> {
  const browser = new FormBrowser();
  const start = await browser.request(`${baseUrl}/console`);
  const page = await (await browser.request(`${baseUrl}${start.headers.get('location') ?? ''}`)).text();
  const signedIn = await browser.postForm(`${baseUrl}/sign-in`, { csrf_token: field(page, 'csrf_token'), next: field(page, 'next').replace(/&amp;/g, '&'), email, password });
  if (signedIn.status !== 303) throw new Error(`console sign-in: ${signedIn.status}`);
  const workspace = `${baseUrl}/console/w/${workspaceId}`;
  // The CSRF token is bound to the session: any console page shows it.
  const csrf = field(await (await browser.request(`${workspace}/connect`)).text(), 'csrf_token');
  return { browser, post: (path, fields) => browser.postForm(`${workspace}${path}`, { csrf_token: csrf, ...fields }) };
}
