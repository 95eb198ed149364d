import { createHash, randomBytes } from 'node:crypto';

/**
 * The OAuth flow driven through the real sign-in and consent forms with plain HTTP
 * (cookies kept by hand), for tests that need many authorizations quickly. The
 * end-to-end test drives the same pages in Chromium.
 */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(baseUrl: string, redirectUri: string, name = 'Test agent'): Promise<string> {
  const res = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: name, redirect_uris: [redirectUri], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** A browser without a browser: follows nothing on its own, keeps cookies. */
export class FormBrowser {
  private readonly cookies = new Map<string, string>();

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', ...value] = pair.split('=');
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value.join('='));
    }
    return res;
  }

  async postForm(url: string, fields: Record<string, string | string[]>): Promise<Response> {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) for (const v of ([] as string[]).concat(value)) body.append(key, v);
    return this.request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }
}

export function field(htmlText: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(htmlText);
  if (!match?.[1]) throw new Error(`no ${name} field in page`);
  return match[1];
}

export interface AuthorizeOptions {
  baseUrl: string;
  clientId: string;
  redirectUri: string;
  server: 'crm' | 'studio';
  email: string;
  password: string;
  workspaceId?: string;
  allowChanges?: boolean;
  challenge: string;
  browser?: FormBrowser;
  /** An authorization URL made elsewhere (e.g. by the MCP SDK's client) instead of one from the fields above. */
  url?: string;
}

export function authorizeUrl(o: Pick<AuthorizeOptions, 'baseUrl' | 'clientId' | 'redirectUri' | 'server' | 'challenge'>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    code_challenge: o.challenge,
    code_challenge_method: 'S256',
    state: 'st-' + randomBytes(4).toString('hex'),
    resource: `${o.baseUrl}/mcp/${o.server}`,
    ...extra,
  });
  return `${o.baseUrl}/oauth/authorize?${params.toString()}`;
}

/** Authorize → sign in (unless the browser has a session) → consent → the code from the redirect. */
export async function authorizeWithForms(o: AuthorizeOptions): Promise<{ code: string; browser: FormBrowser; consentHtml: string; redirect: URL }> {
  const browser = o.browser ?? new FormBrowser();
  let res = await browser.request(o.url ?? authorizeUrl(o));
  let location = res.headers.get('location') ?? '';
  if (location.startsWith('/sign-in')) {
    const page = await (await browser.request(`${o.baseUrl}${location}`)).text();
    res = await browser.postForm(`${o.baseUrl}/sign-in`, { csrf_token: field(page, 'csrf_token'), next: field(page, 'next').replace(/&amp;/g, '&'), email: o.email, password: o.password });
    location = res.headers.get('location') ?? '';
    if (res.status !== 303) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  }
  const consentHtml = await (await browser.request(`${o.baseUrl}${location}`)).text();
  const workspaceId = o.workspaceId ?? field(consentHtml, 'workspace_id');
  const decision = await browser.postForm(`${o.baseUrl}/oauth/consent`, {
    csrf_token: field(consentHtml, 'csrf_token'),
    request: field(consentHtml, 'request'),
    workspace_id: workspaceId,
    // What the page's script sends: the workspace whose permissions were on screen.
    shown_workspace: workspaceId,
    decision: 'approve',
    ...(o.allowChanges ? { allow_changes: workspaceId } : {}),
  });
  const redirect = new URL(decision.headers.get('location') ?? '');
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`consent did not redirect with a code: ${decision.status} ${redirect.href} ${await decision.text()}`);
  return { code, browser, consentHtml, redirect };
}

export async function tokenRequest(baseUrl: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
