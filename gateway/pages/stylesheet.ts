/** The one small stylesheet of the sign-in, consent and console pages (served at /assets/crm.css). */
export const STYLESHEET = `
:root { color-scheme: light; --ink: #1d2330; --muted: #4a5468; --line: #cfd5e1; --accent: #1f4fd1; --accent-ink: #ffffff; --bad: #a3200f; --bg: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
main { max-width: 30rem; margin: 3rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line); border-radius: 10px; }
main.wide { max-width: 76rem; margin: 1.5rem auto; }
.frame { max-width: 76rem; margin: 1.5rem auto; padding: 2rem; background: #fff; border: 1px solid var(--line); border-radius: 10px; }
.frame > main, .frame > main.wide { max-width: none; margin: 0; padding: 0; border: 0; border-radius: 0; }
h1 { font-size: 1.4rem; margin: 0 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
p { margin: .5rem 0; }
.muted { color: var(--muted); font-size: .95rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
label.inline { display: flex; gap: .5rem; align-items: center; font-weight: 400; }
input[type=email], input[type=password], input[type=text], input[type=tel], input[type=date], select { width: 100%; padding: .55rem .65rem; font: inherit; border: 1px solid #8a93a6; border-radius: 6px; background: #fff; color: var(--ink); }
input:focus, select:focus, button:focus, a:focus { outline: 3px solid #f0b429; outline-offset: 2px; }
.actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
button { font: inherit; padding: .6rem 1.2rem; border-radius: 6px; border: 1px solid var(--accent); cursor: pointer; }
button.primary { background: var(--accent); color: var(--accent-ink); }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.error { color: var(--bad); background: #fdecea; border: 1px solid #f3b8b0; padding: .6rem .8rem; border-radius: 6px; }
.notice { background: #eef4ff; border: 1px solid #b9cdf5; padding: .6rem .8rem; border-radius: 6px; }
ul.scopes { padding-left: 1.2rem; }
/* A client's name, its host and the user's e-mail are text of others' choosing, maybe one long word: it wraps instead of widening the page. */
.consent { overflow-wrap: anywhere; }
code, .secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
.secret { display: block; padding: .6rem; border: 1px dashed var(--muted); border-radius: 6px; word-break: break-all; background: #fbfbfd; }
table { border-collapse: collapse; width: 100%; font-size: .95rem; }
th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
nav { display: flex; gap: 1rem; flex-wrap: wrap; align-items: center; margin-bottom: 1rem; }
nav a { color: var(--accent); }
a { color: var(--accent); }
main.wide form:not(.filters) input:not([type=checkbox]):not([type=radio]), main.wide form:not(.filters) select { max-width: 32rem; }
fieldset label.inline { margin: .4rem 0; }
nav a[aria-current="page"] { color: var(--ink); font-weight: 700; text-decoration: none; border-bottom: 3px solid var(--accent); }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; padding: .5rem 1rem 1rem; }
legend { font-weight: 600; padding: 0 .25rem; }
pre { white-space: pre-wrap; margin: .5rem 0; }
pre.example { padding: .6rem; background: #fbfbfd; border: 1px solid var(--line); border-radius: 6px; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9rem; }
.console-header { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: center; justify-content: space-between; padding-bottom: .75rem; margin-bottom: .75rem; border-bottom: 1px solid var(--line); }
.console-header p { margin: 0; }
.product { font-weight: 700; color: var(--accent); }
.switcher { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; max-width: 100%; }
.switcher label, .inline-fields label { margin: 0; }
/* A select is as wide as its longest option (an organization and a workspace name): on a phone it shrinks to the screen instead. */
.switcher select { width: auto; min-width: 0; max-width: 100%; }
.who { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
.inline-form { display: inline; margin: 0; }
button.link { border: none; background: none; color: var(--accent); text-decoration: underline; padding: 0; }
a.button-link { display: inline-block; padding: .6rem 1.2rem; color: var(--accent); }
.inline-fields { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
.inline-fields input, .inline-fields select { width: auto; min-width: 14rem; }
.filters { display: grid; grid-template-columns: repeat(auto-fill, minmax(10.5rem, 1fr)); gap: .25rem 1rem; align-items: end; }
.filters label { margin: .5rem 0 .25rem; }
.actions-inline { display: flex; gap: .75rem; align-items: center; padding-bottom: .1rem; }
/* relative: a visually hidden cell text (position: absolute) is placed and clipped inside the scrolling box, not past it on the page. */
.table-scroll { overflow-x: auto; position: relative; }
code.scope { background: #eef1f6; border-radius: 4px; padding: 0 .3rem; white-space: nowrap; }
ul.plain, ul.fields, ul.deals, ul.figures { list-style: none; padding: 0; margin: 0; }
ul.fields { font-size: .85rem; }
ul.figures { display: flex; flex-wrap: wrap; gap: 1rem; margin: 1rem 0; }
ul.figures a { display: block; min-width: 10rem; padding: .75rem 1rem; border: 1px solid var(--line); border-radius: 8px; text-decoration: none; color: var(--ink); }
.figure { display: block; font-size: 1.8rem; font-weight: 700; color: var(--accent); }
.board { display: grid; grid-auto-flow: column; grid-auto-columns: minmax(13rem, 1fr); gap: .75rem; overflow-x: auto; padding-bottom: .5rem; }
.board.single { grid-auto-columns: minmax(13rem, 40rem); }
.stage { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: .5rem .75rem; overflow-wrap: anywhere; }
.stage h2 { margin: .25rem 0 .5rem; font-size: 1rem; }
li.deal { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .5rem .6rem; margin-bottom: .5rem; display: flex; flex-direction: column; gap: .15rem; font-size: .92rem; }
.amount { font-weight: 600; }
.copy-block { margin: .75rem 0; }
.copy-actions { display: flex; gap: .75rem; align-items: center; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
nav.pager { margin-top: 1rem; }
ul.changes { list-style: none; padding: 0; margin: 0; font-size: .92rem; }
ul.changes li { overflow-wrap: anywhere; }
.old-value { color: var(--muted); }
.new-value { font-weight: 600; }
table.events td:first-child { white-space: nowrap; }
.event-groups { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 0 1rem; }
.event-groups fieldset { margin: .5rem 0; }
ol.attempts { margin: 0; padding-left: 1.2rem; font-size: .92rem; }
.attempt-error { color: var(--bad); overflow-wrap: anywhere; }
textarea { width: 100%; max-width: 48rem; padding: .55rem .65rem; font: inherit; border: 1px solid #8a93a6; border-radius: 6px; background: #fff; color: var(--ink); }
textarea:focus { outline: 3px solid #f0b429; outline-offset: 2px; }
ul.notes { list-style: none; padding: 0; margin: 1rem 0 0; }
li.note { border-top: 1px solid var(--line); padding: .5rem 0; }
.note-meta { margin: 0 0 .25rem; font-size: .92rem; }
.note-body { white-space: pre-wrap; overflow-wrap: anywhere; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
