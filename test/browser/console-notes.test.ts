import type { Page } from 'playwright-core';
import t from 'tap';
import type { Note } from '../../shared/contracts/notes.js';
import type { ListPage } from '../helpers/api-types.js';
import { consoleBrowser, submitForm } from '../helpers/browser.js';
import { check, signIn } from '../helpers/console-pages.js';
import { client } from '../helpers/http.js';
import { useStack } from '../helpers/shared-stack.js';
import { TEST_PASSWORD } from '../helpers/stack.js';

/**
 * Notes in the console, in headless Chromium under the pages' own CSP: a contact's and a
 * deal's notes newest first with their authors, a note added with the page's form, a
 * refused one shown with its reason, and no form for a member who may only read; and a
 * contact changed with its page's form.
 */
const stack = await useStack(t);
const base = stack.baseUrl;
const admin = await stack.bootstrap({ org: 'Initrode', workspace: 'Sales', email: 'peter@initrode.test', defaultCountry: 'US' });
const wsId = admin.workspace.id;
const ws = `/console/w/${wsId}`;
await stack.addMember(wsId, 'milton@initrode.test', ['contacts.read', 'deals.read'], 'all');
const api = client(base, await stack.token(wsId, ['contacts:write', 'deals:write'], { name: 'Website form' }));

const contactId = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Joanna', phone: '+1 415 555 0700' })).body.id;
const dealId = (await api.post<{ id: string }>('/v1/deals', { name: 'Flair upgrade' })).body.id;
await api.post('/v1/notes', { contact_id: contactId, body: 'Came in through the website.\n<script>alert(1)</script>' });
await api.post('/v1/notes', { deal_id: dealId, body: 'Needs **37 pieces** of flair.' });

const { newPage, cspReports } = await consoleBrowser(t);

const notesSection = (page: Page) => page.getByRole('region', { name: 'Notes' });

t.test("a contact's notes, and one added with the form", async (t) => {
  const page = await newPage();
  await signIn(page, base, 'peter@initrode.test', TEST_PASSWORD);
  await page.goto(`${base}${ws}/contacts/${contactId}`);
  const notes = notesSection(page);
  t.match(await notes.innerText(), /API token Website form/, 'the author of a note written over REST');
  t.match(await notes.innerText(), /<script>alert\(1\)<\/script>/, 'markup in a note is shown as text');
  t.equal(await page.locator('li.note script').count(), 0, 'and never runs');

  await page.getByLabel('Add a note').fill('Called Joanna.\nShe wants a **demo** on Friday.');
  t.equal(await submitForm(page, 'Add note'), 303);
  t.equal(new URL(page.url()).pathname, `${ws}/contacts/${contactId}`, 'back on the contact page');
  const items = notes.getByRole('listitem');
  t.equal(await items.count(), 2);
  t.match(await items.first().innerText(), /Console user peter@initrode\.test/, 'newest first, by the signed-in user');
  t.match(await items.first().innerText(), /Called Joanna\.\nShe wants a \*\*demo\*\* on Friday\./, 'line breaks kept');
  t.match(await items.nth(1).innerText(), /Came in through the website/);
  await check(t, page, 'console-contact-notes');

  const stored = (await api.get<ListPage<Note>>(`/v1/notes?contact_id=${contactId}&order=desc`)).body.data[0];
  t.equal(stored?.body, 'Called Joanna.\nShe wants a **demo** on Friday.', "the form's CRLF line breaks are stored as LF");
  t.match(stored?.author, { kind: 'console_user', name: 'peter@initrode.test' });

  await page.getByLabel('Add a note').fill('   ');
  t.equal(await submitForm(page, 'Add note'), 400, 'an empty note is refused');
  t.match(await page.getByRole('alert').innerText(), /^Note: is required/, 'the field named as on the page, not the API\'s body');
  t.equal(await notes.getByRole('listitem').count(), 2, 'nothing added');
  const textarea = page.getByLabel('Add a note');
  t.equal(await textarea.getAttribute('aria-invalid'), 'true', 'the textarea is marked as the field refused');
  t.match(await textarea.getAttribute('aria-describedby'), /(^| )note-error( |$)/, 'and the reason is its description, read out when it is reached');
  t.equal(await page.evaluate<string | null>('document.activeElement.id'), 'note-error', 'focus is on the reason after the refusal');
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate<string | null>('document.activeElement.id'), 'note-body', 'and Tab goes on to the note');
  await check(t, page, 'console-contact-note-refused');
  await page.context().close();
});

t.test("a deal's notes, and no form for a member who may only read", async (t) => {
  const page = await newPage();
  await signIn(page, base, 'peter@initrode.test', TEST_PASSWORD);
  await page.goto(`${base}${ws}/deals/${dealId}`);
  t.match(await notesSection(page).innerText(), /Needs \*\*37 pieces\*\* of flair\./);
  await page.getByLabel('Add a note').fill('Sent the quote.');
  t.equal(await submitForm(page, 'Add note'), 303);
  t.match(await notesSection(page).getByRole('listitem').first().innerText(), /Sent the quote\./);
  await check(t, page, 'console-deal-notes');

  // The Activity page lists note events; a note links to its record's page, at its notes.
  await page.goto(`${base}${ws}/activity?object=note`);
  const links = await Promise.all((await page.locator('main a[href*="#notes"]').all()).map((a) => a.getAttribute('href')));
  t.ok(links.includes(`${ws}/deals/${dealId}#notes`), "a deal note's event links to the deal's notes");
  t.ok(links.includes(`${ws}/contacts/${contactId}#notes`), "a contact note's event links to the contact's notes");
  await check(t, page, 'console-activity-notes');
  await page.context().close();

  const reader = await newPage();
  await signIn(reader, base, 'milton@initrode.test', TEST_PASSWORD);
  await reader.goto(`${base}${ws}/contacts/${contactId}`);
  t.equal(await notesSection(reader).getByRole('listitem').count(), 2, 'the notes are there to read');
  t.equal(await reader.getByLabel('Add a note').count(), 0, 'but no form');
  await check(t, reader, 'console-contact-notes-reader');
  await reader.context().close();
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test("a record's notes and its history page on their own: moving one keeps the other where it is", async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Lumbergh', phone: '+1 415 555 0701' })).body.id;
  // More than a page of each: 20 notes and 25 changes a page.
  for (let i = 1; i <= 26; i++) await api.send('PATCH', `/v1/contacts/${id}`, { body: { last_name: `Version ${i}` } });
  for (let i = 1; i <= 21; i++) await api.post('/v1/notes', { contact_id: id, body: `Memo ${i}` });
  const page = await newPage();
  await signIn(page, base, 'peter@initrode.test', TEST_PASSWORD, `${ws}/contacts/${id}`);
  const firstNote = () => notesSection(page).getByRole('listitem').first().innerText();
  const history = page.getByRole('region', { name: 'History' });

  await notesSection(page).getByRole('link', { name: 'Older notes' }).click();
  await page.waitForURL((url) => url.searchParams.has('notes_cursor'));
  t.match(await firstNote(), /Memo 1\b/, 'the older notes');
  await history.getByRole('link', { name: 'Older' }).click();
  await page.waitForURL((url) => url.searchParams.has('cursor'));
  const url = new URL(page.url());
  t.ok(url.searchParams.has('notes_cursor'), 'the notes stay on their older page');
  t.equal(url.hash, '#history', 'and the page opens at the history');
  t.match(await firstNote(), /Memo 1\b/);
  t.match(await history.innerText(), /contact\.created/, 'the older changes');

  await notesSection(page).getByRole('link', { name: 'Newest notes' }).click();
  await page.waitForURL((u) => !u.searchParams.has('notes_cursor'));
  t.ok(new URL(page.url()).searchParams.has('cursor'), 'the history stays on its older page');
  t.match(await firstNote(), /Memo 21/);
  t.match(await history.innerText(), /contact\.created/);
  await history.getByRole('link', { name: 'Newest' }).click();
  await page.waitForURL((u) => !u.searchParams.has('cursor'));
  t.equal(new URL(page.url()).hash, '#history');
  await check(t, page, 'console-contact-paged');
  await page.context().close();
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test('custom fields are shown by their labels, not their keys', async (t) => {
  const schema = client(base, await stack.token(wsId, ['schema:write']));
  await schema.post('/v1/custom-fields', { object_type: 'contact', key: 'lead_source', label: 'Lead source', type: 'text' });
  await schema.post('/v1/custom-fields', { object_type: 'deal', key: 'flair_count', label: 'Pieces of flair', type: 'number' });
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Samir', phone: '+1 415 555 0702', custom_fields: { lead_source: 'Trade show' } })).body.id;
  const deal = (await api.post<{ id: string }>('/v1/deals', { name: 'More flair', custom_fields: { flair_count: 37 } })).body.id;
  const page = await newPage();
  await signIn(page, base, 'milton@initrode.test', TEST_PASSWORD, `${ws}/contacts?q=samir`);
  t.match(await page.locator('tbody tr', { hasText: 'Samir' }).innerText(), /Lead source: Trade show/, 'in the contact list');
  await page.goto(`${base}${ws}/contacts/${id}`);
  t.match(await page.locator('dl.facts').innerText(), /Lead source\s+Trade show/, 'on the contact’s page');
  t.notMatch(await page.locator('dl.facts').innerText(), /lead_source/);
  await page.goto(`${base}${ws}/deals`);
  t.match(await page.locator('li.deal', { hasText: 'More flair' }).innerText(), /Pieces of flair: 37/, 'on the deals board');
  await page.goto(`${base}${ws}/deals/${deal}`);
  t.match(await page.locator('dl.facts').innerText(), /Pieces of flair\s+37/, 'on the deal’s page');
  await check(t, page, 'console-deal-custom-fields');
  await page.context().close();
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test("a note's limit is counted as the server counts it: characters, an emoji as one", async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Bob', phone: '+1 415 555 0703' })).body.id;
  const characters = (text: string) => Array.from(text).length;
  const page = await newPage();
  await signIn(page, base, 'peter@initrode.test', TEST_PASSWORD, `${ws}/contacts/${id}`);
  const textarea = page.getByLabel('Add a note');

  // 10,000 characters (19,999 UTF-16 units) and a line break the server trims: exactly the limit.
  const full = `${'🙂'.repeat(9_999)}!`;
  await textarea.fill(`${full}\n`);
  t.equal(characters(await textarea.inputValue()), 10_001, 'typed in full, not cut at 10,000 UTF-16 units');
  t.equal(await submitForm(page, 'Add note'), 303, 'and added');
  const stored = (await api.get<ListPage<Note>>(`/v1/notes?contact_id=${id}&order=desc`)).body.data[0];
  t.ok(stored?.body === full, 'stored whole');

  // One character past it: the browser says so before sending, in the server's count.
  const over = `${'🙂'.repeat(10_000)} more`;
  await textarea.fill(over);
  t.ok((await textarea.inputValue()) === over, 'a note past the limit is kept as typed');
  const posts: string[] = [];
  page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
  await page.getByRole('button', { name: 'Add note', exact: true }).click();
  t.same(posts, [], 'and not sent');
  t.equal(await page.evaluate<string>("document.getElementById('note-body').validationMessage"), 'Up to 10,000 characters: this note has 10,005.');
  await page.context().close();

  // Without the script the server refuses it, and the draft comes back whole (past 20,002 UTF-16 units too).
  const plain = await newPage({ javaScriptEnabled: false });
  await signIn(plain, base, 'peter@initrode.test', TEST_PASSWORD, `${ws}/contacts/${id}`);
  const long = '🙂'.repeat(10_500);
  await plain.getByLabel('Add a note').fill(long);
  t.equal(await submitForm(plain, 'Add note'), 400, 'refused by the server');
  t.match(await plain.getByRole('alert').innerText(), /^Note: must be at most 10000 characters/);
  t.ok((await plain.getByLabel('Add a note').inputValue()) === long, 'the draft as typed');
  t.equal((await api.get<ListPage<Note>>(`/v1/notes?contact_id=${id}`)).body.data.length, 1, 'nothing added');
  await plain.context().close();
  t.same(cspReports, [], 'no CSP violation on any page');
});

t.test("a contact changed with its page's form: a refused phone kept as typed, only the changed fields sent", async (t) => {
  const id = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Lumbergh', phone: '+1 415 555 0710', email: 'bill@initrode.test' })).body.id;
  const other = (await api.post<{ id: string }>('/v1/contacts', { first_name: 'Samir', phone: '+1 415 555 0711' })).body.id;
  const page = await newPage();
  await signIn(page, base, 'peter@initrode.test', TEST_PASSWORD, `${ws}/contacts/${id}`);
  await page.getByRole('link', { name: 'Change this contact' }).click();
  await page.getByRole('heading', { name: 'Change Lumbergh' }).waitFor();
  await check(t, page, 'console-contact-edit');

  await page.getByLabel('Last name').fill('Bill');
  await page.getByLabel('Phone').fill('415 555 0711');
  t.equal(await submitForm(page, 'Save changes'), 409, "another contact's phone is refused");
  t.match(await page.getByRole('alert').innerText(), new RegExp(`already exists in this workspace: ${other}`));
  t.equal(await page.getByRole('alert').getByRole('link', { name: 'Open that contact' }).getAttribute('href'), `${ws}/contacts/${other}`);
  t.equal(await page.getByLabel('Phone').getAttribute('aria-invalid'), 'true', 'the phone is marked');
  t.equal(await page.getByLabel('Last name').inputValue(), 'Bill', 'what was typed is kept');
  t.equal(await page.getByLabel('Phone').inputValue(), '415 555 0711');

  // Someone changes the e-mail meanwhile: saving this form, which did not touch it, keeps theirs.
  await api.send('PATCH', `/v1/contacts/${id}`, { body: { email: 'lumbergh@initrode.test' } });
  await page.getByLabel('Phone').fill('415 555 0799');
  t.equal(await submitForm(page, 'Save changes'), 303);
  t.match(await page.getByRole('status').innerText(), /saved/);
  t.equal(await page.getByRole('heading', { level: 1 }).innerText(), 'Lumbergh Bill');
  const saved = (await api.get<{ last_name: string; phone: string; email: string }>(`/v1/contacts/${id}`)).body;
  t.match(saved, { last_name: 'Bill', phone: '+14155550799', email: 'lumbergh@initrode.test' }, 'the typed changes, the other change kept');

  // The API keeps an address with an accented local part; the browser's own e-mail check refused it, so the form could not be saved at all.
  await api.send('PATCH', `/v1/contacts/${id}`, { body: { email: 'josé.lumbergh@initrode.test' } });
  await page.goto(`${base}${ws}/contacts/${id}/edit`);
  await page.getByLabel('First name').fill('Bill');
  t.equal(await submitForm(page, 'Save changes'), 303, 'a contact whose address has an accent can be changed');
  t.match((await api.get<{ first_name: string; email: string }>(`/v1/contacts/${id}`)).body, { first_name: 'Bill', email: 'josé.lumbergh@initrode.test' });

  const reader = await newPage();
  await signIn(reader, base, 'milton@initrode.test', TEST_PASSWORD, `${ws}/contacts/${id}`);
  t.equal(await reader.getByRole('link', { name: 'Change this contact' }).count(), 0, 'a member who may only read gets no link');
  t.equal((await reader.goto(`${base}${ws}/contacts/${id}/edit`))?.status(), 403, 'and the form is refused');
  t.same(cspReports, [], 'no CSP violation on any page');
});
