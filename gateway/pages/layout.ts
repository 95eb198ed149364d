import { html, type Html } from './html.js';

/**
 * The page shell: one stylesheet, no inline script (scripts come from /assets with the page's CSP).
 * `header` (the console's banner and section links) goes before `<main>`, in one frame with it,
 * so that the banner and navigation are landmarks of their own and "main" holds only the page.
 */
export function layout(options: { title: string; body: Html; wide?: boolean; scripts?: string[]; header?: Html }): Html {
  const main = html`<main class="${options.wide ? 'wide' : ''}">
    ${options.body}
  </main>`;
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>${options.title} · Workspace CRM</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/assets/crm.css">
</head>
<body>
  ${options.header ? html`<div class="frame">${options.header}${main}</div>` : main}
  ${(options.scripts ?? []).map((src) => html`<script src="${src}"></script>`)}
</body>
</html>`;
}

/** Pages may run scripts and styles from this origin only, and may not be framed. */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};
