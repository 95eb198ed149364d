import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { Test } from 'tap';
import { ROOT } from './environment.js';

/** Where the browser tests leave their screenshots (ignored by git). */
const ARTIFACTS = path.join(ROOT, 'test', 'artifacts');

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function signIn(page: Page, baseUrl: string, email: string, password: string, start = '/console'): Promise<void> {
  await page.goto(`${baseUrl}${start}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/sign-in')), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/** A full-width screenshot of the page as it is now, at 1280x800, under test/artifacts/. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

export interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's WCAG 2 A and AA rules (labels, contrast, names, structure) on the page as
 * it is. The script is evaluated through the debugging protocol, so the page's own CSP
 * stays in force for everything else.
 */
export async function accessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  // Evaluated as text in the page (these tests are compiled without the DOM library).
  const rules = JSON.stringify({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  return page.evaluate<AxeViolation[]>(
    `axe.run(document, ${rules}).then((r) => r.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  );
}

/**
 * The tables without a name (a caption, or aria-label/labelledby): a screen reader's table
 * list then shows "table" several times on a page. axe-core's WCAG rules do not check it.
 */
async function unnamedTables(page: Page): Promise<number> {
  return page.evaluate<number>(
    `[...document.querySelectorAll('table')].filter((t) => !(t.caption?.textContent.trim() || t.getAttribute('aria-label')?.trim() || t.getAttribute('aria-labelledby'))).length`,
  );
}

/** Screenshot, then axe-core: no WCAG 2.1 A/AA violation (labels, contrast, names…), and every table named. */
export async function check(t: Test, page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  const violations = await accessibilityViolations(page);
  t.same(
    violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `${name}: no accessibility violations`,
  );
  t.equal(await unnamedTables(page), 0, `${name}: every table has a name`);
}

/** The text of a copy block's field, as the page shows it. */
export async function shownText(page: Page, id: string): Promise<string> {
  return (await page.locator(`#${id}`).innerText()).trim();
}

/** Clicks a form's button and answers the status of the POST it sent, once the next page has loaded. */
export async function submit(page: Page, button: string): Promise<number> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: button, exact: true }).click()]);
  await page.waitForLoadState();
  return response.status();
}

/** What the page's clipboard holds (needs the clipboard permissions on its context). */
export async function clipboard(page: Page): Promise<string> {
  // A string, evaluated in the page: the tests are compiled without the DOM library.
  return page.evaluate<string>('navigator.clipboard.readText()');
}
