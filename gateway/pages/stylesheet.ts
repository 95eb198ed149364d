/** The one small stylesheet of the sign-in, consent and console pages (served at /assets/crm.css). */
export const STYLESHEET = `
:root { color-scheme: light; --ink: #1d2330; --muted: #4a5468; --line: #cfd5e1; --accent: #1f4fd1; --accent-ink: #ffffff; --bad: #a3200f; --bg: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
main { max-width: 30rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line); border-radius: 10px; }
main.wide { max-width: 64rem; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
p { margin: .5rem 0; }
.muted { color: var(--muted); font-size: .95rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
label.inline { display: flex; gap: .5rem; align-items: center; font-weight: 400; }
input[type=email], input[type=password], input[type=text], input[type=date], select { width: 100%; padding: .55rem .65rem; font: inherit; border: 1px solid #8a93a6; border-radius: 6px; background: #fff; color: var(--ink); }
input:focus, select:focus, button:focus, a:focus { outline: 3px solid #f0b429; outline-offset: 2px; }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
button { font: inherit; padding: .6rem 1.2rem; border-radius: 6px; border: 1px solid var(--accent); cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-ink); }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.error { color: var(--bad); background: #fdecea; border: 1px solid #f3b8b0; padding: .6rem .8rem; border-radius: 6px; }
.notice { background: #eef4ff; border: 1px solid #b9cdf5; padding: .6rem .8rem; border-radius: 6px; }
ul.scopes { padding-left: 1.2rem; }
code, .secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
.secret { display: block; padding: .6rem; border: 1px dashed var(--muted); border-radius: 6px; word-break: break-all; background: #fbfbfd; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
nav { display: flex; gap: 1rem; flex-wrap: wrap; align-items: center; margin-bottom: 1rem; }
nav a { color: var(--accent); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
