import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/** Real Chromium from the system (.ci/run installs it), never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

/**
 * Collects what the page's console says about Content Security Policy violations into
 * `reports`, so a test can end by asserting the pages ran under their CSP without one.
 */
export function collectCspViolations(page: Page, reports: string[]): void {
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) reports.push(message.text());
  });
}

/** A browser for one test file: fresh pages (each its own context, so its own cookies), and the CSP reports of all of them. */
export interface ConsoleBrowser {
  /** `options` on top of a desktop viewport: `{ javaScriptEnabled: false }` for a page without its script. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  cspReports: string[];
}

export async function consoleBrowser(t: { teardown(fn: () => unknown): void }): Promise<ConsoleBrowser> {
  const browser = await launchBrowser();
  t.teardown(() => browser.close());
  const cspReports: string[] = [];
  return {
    cspReports,
    newPage: async (options = {}) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
      const page = await context.newPage();
      collectCspViolations(page, cspReports);
      return page;
    },
  };
}

/** Clicks a form's button and waits for the page its POST leads to; the POST's status. */
export async function submitForm(page: Page, button: string): Promise<number> {
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: button, exact: true }).click()]);
  await page.waitForLoadState();
  return response.status();
}
