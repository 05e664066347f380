import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { TEST_CHROMIUM_PATH, WORKSPACE_ROOT } from '@paper/dev-stack';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: TEST_CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Saves a screenshot into docs/screenshots when enabled (SCREENSHOTS=1; the files are committed and shown in
 * docs/oauth.md).
 */
export async function screenshot(enabled: boolean, page: Page, name: string, selector?: string): Promise<void> {
  if (!enabled) return;
  const dir = path.join(WORKSPACE_ROOT, 'docs', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path: file });
  else await page.screenshot({ path: file, fullPage: true });
}

export interface Limits {
  maxMarginPerTradeUsd: string;
  maxLeverage: string;
  maxDailyNotionalUsd: string;
  maxOpenPositions: string;
  markets: ('BTC' | 'ETH')[];
  confirmations: boolean;
  expiresInDays: string;
}

/**
 * Drives the consent page like a person using the keyboard: buttons are pressed with Enter, inputs found by their
 * labels.
 */
export class ConsentDriver {
  constructor(readonly page: Page) {}

  async open(url: URL): Promise<void> {
    await this.page.goto(url.toString());
    await this.page.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
  }

  /**
   * Opens the consent page as a relying party posting its request does: a form POST to the authorization endpoint
   * (OpenID Connect).
   */
  async openByPost(url: URL): Promise<void> {
    const action = `${url.origin}${url.pathname}`;
    const fields = [...url.searchParams];
    await this.page.goto('about:blank');
    await this.page.evaluate(`(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = ${JSON.stringify(action)};
      for (const [name, value] of ${JSON.stringify(fields)}) {
        const input = document.createElement('input');
        input.type = 'hidden';
        input.name = name;
        input.value = value;
        form.appendChild(input);
      }
      document.body.appendChild(form);
      form.submit();
    })()`);
    await this.page.getByRole('heading', { name: /Step 1 of 3/ }).waitFor();
  }

  async connectBrowserWallet(): Promise<void> {
    await this.page.getByRole('button', { name: 'Connect browser wallet' }).press('Enter');
    await this.page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
  }

  async connectDemoWallet(): Promise<void> {
    await this.page.getByRole('button', { name: 'Use a demo wallet (paper trading only)' }).press('Enter');
    await this.page.getByRole('heading', { name: /Step 2 of 3/ }).waitFor();
  }

  async signIn(): Promise<void> {
    await this.page.getByRole('button', { name: 'Sign in with this wallet' }).press('Enter');
    await this.page.getByRole('heading', { name: /Step 3 of 3/ }).waitFor();
  }

  async setLimits(limits: Limits): Promise<void> {
    const p = this.page;
    await p.getByLabel('Maximum margin per trade (USDC)').fill(limits.maxMarginPerTradeUsd);
    await p.getByLabel('Maximum leverage').fill(limits.maxLeverage);
    await p.getByLabel('Maximum daily notional (USDC)').fill(limits.maxDailyNotionalUsd);
    await p.getByLabel('Maximum open positions').fill(limits.maxOpenPositions);
    for (const market of ['BTC', 'ETH'] as const)
      await toggle(p.getByLabel(market, { exact: true }), limits.markets.includes(market));
    await toggle(p.getByLabel(/preview of each trade/i), limits.confirmations);
    await p.getByLabel('Trading key lifetime (days)').fill(limits.expiresInDays);
  }

  /** Answers an app that asks to trade with read-only access (keyboard: arrow keys move within the radio group). */
  async chooseReadOnly(): Promise<void> {
    await this.page.getByRole('radio', { name: /Read only/ }).check();
    await this.page.getByRole('button', { name: 'Approve read-only access' }).waitFor();
  }

  async approve(): Promise<void> {
    await this.page.getByRole('button', { name: /^Approve/ }).press('Enter');
  }

  async deny(): Promise<void> {
    await this.page.getByRole('button', { name: 'Deny' }).press('Enter');
  }

  /** The id of the focused element and the accessible description of that element (its aria-describedby texts). */
  async focusedField(): Promise<{ id: string; invalid: string | null; description: string }> {
    return (await this.page.evaluate(`(() => {
      const el = document.activeElement;
      const ids = (el.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
      const description = ids.map((id) => (document.getElementById(id)?.textContent || '').trim()).filter(Boolean).join(' ');
      return { id: el.id, invalid: el.getAttribute('aria-invalid'), description };
    })()`)) as { id: string; invalid: string | null; description: string };
  }

  async errorText(): Promise<string> {
    const box = this.page.locator('#error');
    await box.waitFor({ state: 'visible' });
    return (await box.textContent()) ?? '';
  }
}

/** Positions from 10,000 USDC (the exchange minimum) to 15,000 USDC notional, BTC only. */
export const DEFAULT_TEST_LIMITS: Limits = {
  maxMarginPerTradeUsd: '50',
  maxLeverage: '300',
  maxDailyNotionalUsd: '40000',
  maxOpenPositions: '3',
  markets: ['BTC'],
  confirmations: false,
  expiresInDays: '7',
};

/** Sets a checkbox with the keyboard (Space toggles it). */
async function toggle(box: Locator, checked: boolean): Promise<void> {
  if ((await box.isChecked()) !== checked) await box.press('Space');
}
