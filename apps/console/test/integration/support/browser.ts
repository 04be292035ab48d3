import { readFileSync } from 'node:fs';
import path from 'node:path';

import { repoRoot, SmtpSink } from '@kyc/testing';
import { Browser, chromium, Page } from 'playwright-core';

import { codeFor } from './console-fixture';

export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });

const AXE = readFileSync(path.join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations of the page as it is (rule id and the first target). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated, not added as a <script>: the console's Content-Security-Policy refuses inline scripts.
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes[0]?.target?.join(' ')} (${v.help})`);
  });
  return violations;
}

/** With CONSOLE_SCREENSHOTS=<dir> (off in CI; docs/console/ for the docs), the page as <dir>/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.CONSOLE_SCREENSHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Signs in on the page with the code read from the mail sink. */
export async function signInOnPage(page: Page, url: string, smtp: SmtpSink, email: string): Promise<void> {
  await page.goto(url);
  await page.fill('#email', email);
  const before = smtp.messages.length;
  await page.click('#send-code');
  const code = await codeFor(smtp, email, before);
  await page.fill('#code', code);
  await page.click('#verify');
  await page.getByTestId('whoami').waitFor();
}
