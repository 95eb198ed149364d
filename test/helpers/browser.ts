import { chromium, type Browser, type Page } from 'playwright-core';

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
