import { renderConsentPage } from './consent-page.view';
import type { ConsentView } from './consent.service';

const view: ConsentView = {
  uid: 'abc',
  clientId: 'client-1',
  clientName: 'Agent <script>alert(1)</script>',
  redirectHost: 'claude.ai',
  scopes: ['trade:read', 'trade:write', 'offline_access'],
  resources: ['http://localhost:8080/mcp'],
  tradeRequested: true,
  wallet: null,
  paperMode: true,
};

describe('consent page', () => {
  it('escapes what the client registered (its name) everywhere, including the page data', () => {
    const page = renderConsentPage(view);
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('Agent &lt;script&gt;alert(1)&lt;/script&gt;');
    const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page)![1]!;
    expect(JSON.parse(data)).toMatchObject({ clientName: view.clientName, base: '/interaction/abc', minNotionalUsd: 10000 });
  });

  it('says what the app may do with whose funds, where it returns, and that it cannot withdraw', () => {
    const page = renderConsentPage(view);
    expect(page).toContain('will be able to open and close positions with the funds of');
    expect(page).toContain('it can never withdraw');
    expect(page).toContain('<strong class="redirect-host">claude.ai</strong>');
    expect(page).toContain('Fund this wallet with test USDC');
  });

  it('labels every limit input and groups the markets in a fieldset', () => {
    const page = renderConsentPage(view);
    for (const id of ['max-margin', 'max-leverage', 'max-daily', 'max-positions', 'expiry-days']) {
      expect(page).toContain(`<label for="${id}">`);
      expect(page).toContain(`id="${id}"`);
    }
    expect(page).toContain('<legend>Markets the app may trade</legend>');
  });

  it('offers read-only approval without limits when the app cannot trade, and no faucet outside paper mode', () => {
    const page = renderConsentPage({ ...view, scopes: ['trade:read'], tradeRequested: false, paperMode: false });
    expect(page).toContain('Approve read-only access');
    expect(page).not.toContain('id="guardrails"');
    expect(page).not.toContain('Fund this wallet');
  });

  it('loads scripts and styles only from this site', () => {
    const page = renderConsentPage(view);
    const sources = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.filter((s) => /^(https?:)?\/\//.test(s))).toEqual([]);
  });
});
