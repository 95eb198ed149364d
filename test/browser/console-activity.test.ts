import type { Page } from 'playwright-core';
import t from 'tap';
import { ADMIN_PERMISSIONS, grantableScopes } from '../../shared/auth/permissions.js';
import type { CallContext } from '../../shared/contracts/call-context.js';
import { updateContact } from '../../shared/contracts/contacts.js';
import { collectCspViolations, launchBrowser } from '../helpers/browser.js';
import { busAs } from '../helpers/bus-as.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * The console's change history in real headless Chromium: the Activity page (who changed
 * what, old → new, filters, paging) and a contact's and a deal's own history, each held to
 * the member's read permissions and `owned` visibility exactly as REST is.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Umbrella', workspace: 'Sales', email: 'ada@umbrella.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
const ownerId = await stack.addMember(wsId, 'olive@umbrella.test', ['contacts.write', 'deals.write'], 'owned');
await stack.addMember(wsId, 'rita@umbrella.test', ['contacts.read'], 'all');
const writer = client(base, await stack.token(wsId, ['contacts:write', 'deals:write', 'schema:read'], { name: 'Website form' }));

interface Created {
  id: string;
}
async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await writer.post<Created>(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

// The administrator's contact, changed over REST with the named token, then by the
// administrator as a console user. The console has no contact form, so the second change
// is the bus call a console page makes: the gateway's identity, the user's session context.
const adaId = await created('/v1/contacts', { first_name: 'Ada', phone: '+1 415 555 0100', email: 'ada@example.test' });
await writer.send('PATCH', `/v1/contacts/${adaId}`, { body: { first_name: 'Adele' } });
const gateway = await busAs(t, stack, 'gateway', { timeoutMs: 15_000 });
const adminContext: CallContext = { workspace_id: wsId, principal: { type: 'user', id: admin.user.id, scopes: grantableScopes(ADMIN_PERMISSIONS) }, visibility: 'all' };
await gateway.call(updateContact, { id: adaId, last_name: 'King' }, { context: adminContext, requestId: 'req_console_activity_edit' });

// Olive (owned) owns one contact and one deal; the rest is not hers.
const oliveContactId = await created('/v1/contacts', { first_name: 'Olivia', last_name: 'Owned', phone: '+1 415 555 0101', owner_id: ownerId });
const hostileId = await created('/v1/contacts', { first_name: '<img src=x id=injected>', last_name: '"&amp;', phone: '+1 415 555 0102' });
const pipelines = (await writer.get<{ data: { id: string; is_default: boolean; stages: { id: string; name: string }[] }[] }>('/v1/pipelines')).body.data;
const pipeline = pipelines.find((p) => p.is_default) ?? pipelines[0];
if (!pipeline) throw new Error('no pipeline');
const [firstStage, secondStage] = pipeline.stages;
if (!firstStage || !secondStage) throw new Error('the default pipeline has fewer than two stages');
const dealId = await created('/v1/deals', { name: 'Umbrella renewal', contact_id: adaId, stage_id: firstStage.id, amount: 50000, currency: 'USD' });
await writer.send('PATCH', `/v1/deals/${dealId}`, { body: { stage_id: secondStage.id, amount: 125000 } });
const oliveDealId = await created('/v1/deals', { name: 'Olive’s deal', owner_id: ownerId, contact_id: oliveContactId });

const browser = await launchBrowser();
t.teardown(() => browser.close());
const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await context.newPage();
const cspReports: string[] = [];
collectCspViolations(page, cspReports);

/** Each row of the feed as its cells read: what (type and record), who, and the changes. */
async function rows(p: Page): Promise<{ what: string; who: string; changes: string }[]> {
  const cells = (column: string) => p.locator(`table.events tbody tr td[data-column="${column}"]`).allInnerTexts();
  const [what, who, changes] = await Promise.all([cells('what'), cells('who'), cells('changes')]);
  return what.map((w, i) => ({ what: w.trim(), who: (who[i] ?? '').trim(), changes: (changes[i] ?? '').trim() }));
}

async function filterBy(p: Page, fields: { kind?: string; id?: string; actor?: string; actorId?: string }): Promise<void> {
  await p.goto(`${base}${ws}/activity`);
  if (fields.kind) await p.getByLabel('Kind of record').selectOption({ label: fields.kind });
  if (fields.id) await p.getByLabel('Record id').fill(fields.id);
  if (fields.actor) await p.getByLabel('Changed by').selectOption({ label: fields.actor });
  if (fields.actorId) await p.getByLabel('Actor id').fill(fields.actorId);
  await Promise.all([p.waitForURL((url) => url.pathname.endsWith('/activity') && url.search !== ''), p.getByRole('button', { name: 'Filter' }).click()]);
}

t.test('the Activity page shows who changed what, old → new, newest first', async (t) => {
  await signIn(page, base, 'ada@umbrella.test', TEST_PASSWORD);
  const nav = page.getByRole('navigation', { name: 'Console sections' });
  await nav.getByRole('link', { name: 'Activity', exact: true }).click();
  await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
  t.equal(new URL(page.url()).pathname, `${ws}/activity`);

  const feed = await rows(page);
  const adaRows = feed.filter((r) => /^Contact (Ada|Adele|Adele King)$/m.test(r.what));
  t.same(
    adaRows.map((r) => r.what.split('\n')[0]),
    ['contact.updated', 'contact.updated', 'contact.created'],
    'the contact’s three events, newest first',
  );
  const [byConsole, byToken] = adaRows;
  t.match(byConsole?.who, /^Console user ada@umbrella\.test$/, 'the console change names the user by e-mail');
  t.match(byConsole?.changes, /last_name: \(empty\) → King/, 'and the field, old → new');
  t.match(byToken?.who, /^API token Website form$/, 'the REST change names the token');
  t.match(byToken?.changes, /first_name: Ada → Adele/);
  t.notMatch(byToken?.changes, /last_name/, 'only what that change changed');

  const stageRow = feed.find((r) => r.what.startsWith('deal.stage_changed'));
  t.match(stageRow?.changes, new RegExp(`stage_id: ${firstStage.name} → ${secondStage.name}`), 'stages by name');
  t.match(stageRow?.changes, /amount: \$500\.00 → \$1,250\.00/, 'amounts in their currency');

  const link = page.getByRole('link', { name: 'Adele King' }).first();
  t.equal(await link.getAttribute('href'), `${ws}/contacts/${adaId}`, 'a contact links to its page');
  t.equal(await page.getByRole('link', { name: 'Umbrella renewal' }).first().getAttribute('href'), `${ws}/deals/${dealId}`, 'a deal to its');
  await check(t, page, 'console-activity');
});

t.test('values are text: a name with markup is shown, not run', async (t) => {
  await page.goto(`${base}${ws}/activity?object_id=${hostileId}`);
  t.equal(await page.locator('#injected').count(), 0, 'no element from the name');
  t.match(await page.locator('table.events').innerText(), /<img src=x id=injected> "&amp;/);
  await page.goto(`${base}${ws}/contacts/${hostileId}`);
  t.equal(await page.locator('#injected').count(), 0);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), '<img src=x id=injected> "&amp;');
});

t.test('filters: kind of record, record id, kind of actor; a bad one is answered on the page', async (t) => {
  await filterBy(page, { kind: 'Deal' });
  t.ok((await rows(page)).every((r) => r.what.startsWith('deal.')), 'only deal events');
  t.equal(new URL(page.url()).searchParams.get('object'), 'deal', 'filters live in the URL');
  t.equal(await page.getByLabel('Kind of record').inputValue(), 'deal', 'and fill the form again');

  await filterBy(page, { actor: 'Console user' });
  const byConsole = await rows(page);
  t.equal(byConsole.length, 1, 'one change was made in the console');
  t.match(byConsole[0]?.who, /ada@umbrella\.test/);

  // One actor among others of its kind: its name in the feed leads to everything it changed.
  await page.goto(`${base}${ws}/activity?object_id=${adaId}`);
  await Promise.all([
    page.waitForURL((url) => url.searchParams.has('actor_id')),
    page.getByRole('link', { name: 'API token Website form' }).first().click(),
  ]);
  const writerId = new URL(page.url()).searchParams.get('actor_id') ?? '';
  t.match(writerId, /^tok_/, "the token's id in the URL");
  t.equal(await page.getByLabel('Actor id').inputValue(), writerId, 'and in the form');
  const byWriter = await rows(page);
  t.ok(byWriter.length >= 6 && byWriter.every((r) => r.who === 'API token Website form'), "only the token's changes, of every record");
  await filterBy(page, { actorId: writerId, kind: 'Deal' });
  t.same((await rows(page)).map((r) => r.what.split('\n')[0]), ['deal.created', 'deal.stage_changed', 'deal.created'], 'with the other filters');

  await filterBy(page, { id: dealId, kind: 'Deal' });
  t.same((await rows(page)).map((r) => r.what.split('\n')[0]), ['deal.stage_changed', 'deal.created'], 'one record');

  await filterBy(page, { actor: 'Command line' });
  const byCli = (await rows(page)).map((r) => r.what.split('\n')[0]);
  t.ok(byCli.includes('member.added'), 'the command line added the administrator (crm bootstrap)');
  t.ok(byCli.every((what) => what === 'member.added' || what === 'token.created'), 'and made the tests\' tokens, nothing else');
  await filterBy(page, { actor: 'Command line', kind: 'Deal' });
  t.match(await page.getByRole('status').innerText(), /No changes\./);

  const bad = await page.goto(`${base}${ws}/activity?object=planet`);
  t.equal(bad?.status(), 400);
  t.match(await page.getByRole('alert').innerText(), /Kind of record/);
  t.equal(await page.getByLabel('Kind of record').getAttribute('aria-invalid'), 'true', 'the refused filter is marked');
  const badActor = await page.goto(`${base}${ws}/activity?actor_kind=robot`);
  t.equal(badActor?.status(), 400);
  t.match(await page.getByRole('alert').innerText(), /^Changed by: /, 'named by its label on the page, not the API\'s actor_kind');
  t.equal(await page.getByLabel('Changed by').getAttribute('aria-invalid'), 'true', 'that filter marked');
  t.equal(await page.getByRole('combobox', { name: 'Changed by' }).getAttribute('aria-describedby'), 'filter-error', 'the reason is its description');
  t.equal(await page.getByLabel('Kind of record').getAttribute('aria-invalid'), null, 'and no other');

  // A plain GET form: it works without script.
  const plain = await browser.newContext({ javaScriptEnabled: false });
  t.teardown(() => plain.close());
  const noScript = await plain.newPage();
  await signIn(noScript, base, 'ada@umbrella.test', TEST_PASSWORD, `${ws}/activity`);
  await filterBy(noScript, { kind: 'Contact', actor: 'API token' });
  const contactRows = await noScript.locator('table.events tbody tr td[data-column="what"]').allInnerTexts();
  t.ok(contactRows.length > 0 && contactRows.every((w) => w.startsWith('contact.')), 'filtered without script');
});

t.test('"Older" pages back through the feed with the filters kept', async (t) => {
  for (let i = 0; i < 26; i++) await created('/v1/contacts', { first_name: `Page${String(i).padStart(2, '0')}`, phone: `+1 415 555 3${String(i).padStart(3, '0')}` });
  await filterBy(page, { kind: 'Contact' });
  const first = await rows(page);
  t.equal(first.length, 25, 'a page of 25');
  await page.getByRole('link', { name: 'Older' }).click();
  t.equal(new URL(page.url()).searchParams.get('object'), 'contact', 'the filter travels with the cursor');
  const older = await rows(page);
  t.ok(older.length > 0 && older.every((r) => r.what.startsWith('contact.')));
  t.match(older.at(-1)?.what, /^contact\.created\nContact Ada$/, 'back to the first contact');
  t.equal(await page.getByRole('link', { name: 'Older' }).count(), 0, 'and no further');
  await page.getByRole('link', { name: 'Newest' }).click();
  t.same(await rows(page), first);
});

t.test('a contact’s page: its fields and its own history; a deal’s likewise', async (t) => {
  await page.goto(`${base}${ws}/contacts?q=adele`);
  await page.getByRole('link', { name: 'Adele King' }).click();
  await page.getByRole('heading', { name: 'Adele King', level: 1 }).waitFor();
  t.equal(new URL(page.url()).pathname, `${ws}/contacts/${adaId}`, 'linked from the list');
  t.match(await page.locator('dl.facts').innerText(), /ada@example\.test[\s\S]*\+14155550100[\s\S]*Active/);
  const history = await rows(page);
  t.same(history.map((r) => r.what), ['contact.updated', 'contact.updated', 'contact.created'], 'only this contact’s events');
  t.match(history[0]?.who, /Console user ada@umbrella\.test/);
  t.match(history[0]?.changes, /last_name: \(empty\) → King/);
  t.match(history[1]?.who, /API token Website form/);
  t.match(history[1]?.changes, /first_name: Ada → Adele/);
  await check(t, page, 'console-contact');

  await page.goto(`${base}${ws}/deals`);
  await page.getByRole('link', { name: 'Umbrella renewal' }).click();
  await page.getByRole('heading', { name: 'Umbrella renewal', level: 1 }).waitFor();
  t.equal(new URL(page.url()).pathname, `${ws}/deals/${dealId}`, 'linked from the board');
  t.match(await page.locator('dl.facts').innerText(), new RegExp(`\\$1,250\\.00[\\s\\S]*${secondStage.name}[\\s\\S]*Adele King`));
  t.equal(await page.locator('dl.facts').getByRole('link', { name: 'Adele King' }).getAttribute('href'), `${ws}/contacts/${adaId}`);
  t.same((await rows(page)).map((r) => r.what), ['deal.stage_changed', 'deal.created']);
  await check(t, page, 'console-deal');

  t.equal((await page.goto(`${base}${ws}/contacts/con_nope`))?.status(), 404, 'an unknown contact is a 404 page');
  t.match(await page.getByRole('alert').innerText(), /No such contact/);
});

t.test('an owned member sees only their own records’ changes, and no one else’s record', async (t) => {
  const own = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => own.close());
  const olive = await own.newPage();
  await signIn(olive, base, 'olive@umbrella.test', TEST_PASSWORD, `${ws}/activity`);
  const feed = await rows(olive);
  const records = feed.filter((r) => /^(contact|deal)\./.test(r.what));
  t.same(records.map((r) => r.what.split('\n')[0]).sort(), ['contact.created', 'deal.created'], 'her contact and her deal');
  t.ok(records.every((r) => /Olivia Owned|Olive’s deal/.test(r.what)));
  t.notMatch(await olive.locator('main').innerText(), /Adele|Umbrella renewal|injected|Page0/, 'nothing of anyone else’s');
  t.match(await olive.locator('main').innerText(), /contacts and deals you own/);
  await check(t, olive, 'console-activity-owned');

  t.equal((await olive.goto(`${base}${ws}/contacts/${oliveContactId}`))?.status(), 200, 'her contact’s page');
  t.equal((await olive.goto(`${base}${ws}/deals/${oliveDealId}`))?.status(), 200, 'her deal’s page');
  t.equal((await olive.goto(`${base}${ws}/contacts/${adaId}`))?.status(), 404, 'another’s contact is a 404');
  t.equal((await olive.goto(`${base}${ws}/deals/${dealId}`))?.status(), 404, 'another’s deal is a 404');
  const byId = await olive.goto(`${base}${ws}/activity?object_id=${adaId}`);
  t.equal(byId?.status(), 200);
  t.equal((await rows(olive)).length, 0, 'asking for another’s record by id shows nothing');
});

t.test('a member without deals.read sees no deal event and no deal', async (t) => {
  const readerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  t.teardown(() => readerContext.close());
  const rita = await readerContext.newPage();
  await signIn(rita, base, 'rita@umbrella.test', TEST_PASSWORD, `${ws}/activity`);
  t.notMatch(await rita.getByRole('navigation', { name: 'Console sections' }).innerText(), /Deals/);
  const feed = await rows(rita);
  t.ok(feed.some((r) => r.what.startsWith('contact.')), 'contact events');
  t.notOk(feed.some((r) => r.what.startsWith('deal.')), 'but no deal event');
  t.notMatch(await rita.locator('main').innerText(), /Umbrella renewal|Olive’s deal/);
  t.same(await rita.getByLabel('Kind of record').locator('option').allInnerTexts(), ['Any', 'Contact', 'Note', 'Custom field', 'Pipeline', 'Stage', 'Workspace settings'], 'the filter offers what she may read (notes: those on contacts)');
  // Before, the help named con_, deal_, fld_, pipe_ and stg_ for everyone, and no note_, usr_ or ws_.
  t.equal(
    await rita.locator('#object-id-help').innerText(),
    'A record id is its con_…, note_…, fld_…, pipe_…, stg_… or ws_… identifier. Times are in UTC.',
    'the record id help names the ids of the kinds she may read',
  );
  t.equal((await rita.goto(`${base}${ws}/activity?object=deal`))?.status(), 403, 'deal changes asked for by URL: refused');
  t.match(await rita.getByRole('alert').innerText(), /do not let you read changes of this kind \(Deal\)/);
  t.equal((await rita.goto(`${base}${ws}/deals/${dealId}`))?.status(), 404, 'a deal is a 404');
  await rita.goto(`${base}${ws}/contacts/${adaId}`);
  t.notOk((await rows(rita)).some((r) => /deal/.test(r.what)));
});

t.test('the new pages: security headers, no inline script, no form that posts, no CSP violation', async (t) => {
  const cookies = (await context.cookies(base)).map((c) => `${c.name}=${c.value}`).join('; ');
  for (const path of ['/activity', '/activity?object=contact', `/contacts/${adaId}`, `/deals/${dealId}`]) {
    const res = await fetch(`${base}${ws}${path}`, { headers: { cookie: cookies }, redirect: 'manual' });
    t.equal(res.status, 200, `${path}: 200`);
    t.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    t.equal(res.headers.get('cache-control'), 'no-store');
    const body = await res.text();
    t.notMatch(body, /<script(?![^>]*\bsrc=)/, 'no inline script');
    t.notMatch(body, /\son[a-z]+="/, 'no inline event handlers');
    const posts = body.match(/<form method="post"/g)?.length ?? 0;
    t.equal(body.match(/name="csrf_token"/g)?.length ?? 0, posts, 'only the sign-out form posts, with its CSRF token');
  }
  t.same(cspReports, [], 'the pages ran without a single CSP violation');
});
