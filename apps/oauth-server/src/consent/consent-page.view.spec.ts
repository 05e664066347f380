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
  staysConnected: true,
  wallet: null,
  paperMode: true,
};

describe('consent page', () => {
  it('escapes what the client registered (its name) everywhere, including the page data', () => {
    const page = renderConsentPage(view);
    expect(page).not.toContain('<script>alert(1)</script>');
    expect(page).toContain('Agent &lt;script&gt;alert(1)&lt;/script&gt;');
    const data = /<script type="application\/json" id="page-data">(.*?)<\/script>/s.exec(page)![1]!;
    expect(JSON.parse(data)).toMatchObject({
      clientName: view.clientName,
      base: '/interaction/abc',
      minNotionalUsd: 10000,
    });
  });

  it('says what the app may do with whose funds, where it returns, and that it cannot withdraw', () => {
    const page = renderConsentPage(view);
    expect(page).toContain('will be able to open and close positions with the funds of');
    expect(page).toContain('it can never withdraw');
    expect(page).toContain('<strong class="redirect-host">claude.ai</strong>');
    expect(page).toContain('Fund this wallet with test USDC');
  });

  it('shows the host of a client ID metadata document beside the name the app gives itself', () => {
    expect(renderConsentPage(view)).not.toContain('class="client-host"');
    const page = renderConsentPage({
      ...view,
      clientId: 'https://agent.example/client.json',
      clientHost: 'agent.example',
    });
    expect(page).toContain('This app is published by <strong>agent.example</strong>');
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

  it('says what the app asks for in plain words in the first card, before any wallet is connected', () => {
    const page = renderConsentPage(view);
    const request = page.slice(page.indexOf('class="card request"'), page.indexOf('id="step-connect"'));
    expect(request).toContain('See your account');
    expect(request).toContain('Trade within your limits');
    expect(request).toContain('Stay connected');
    expect(request).toContain('until its trading key expires');
    expect(request).not.toContain('(offline_access)');
    expect(page.match(/Trade within your limits/g)).toHaveLength(1);
  });

  it('promises staying connected only to a client that receives a refresh token, in words for read-only access', () => {
    expect(renderConsentPage({ ...view, staysConnected: false })).not.toContain('Stay connected');
    const readOnly = renderConsentPage({ ...view, scopes: ['trade:read'], tradeRequested: false });
    expect(readOnly).toContain('for up to 30 days, or until you revoke the connection');
  });

  it('describes the preview guardrail as what is enforced, never as a confirmation it cannot check', () => {
    const page = renderConsentPage(view);
    expect(page).not.toMatch(/get my confirmation/i);
    expect(page).toContain('Require a preview of each trade before it is opened');
    expect(page).toContain('quote from a preview of the same trade');
    expect(page).toContain('valid for 3 minutes');
    expect(page).toContain('aria-describedby="confirmations-hint"');
  });

  it('links each limit input to its hint and its error message', () => {
    const page = renderConsentPage(view);
    for (const id of ['max-margin', 'max-leverage', 'max-daily', 'max-positions', 'expiry-days']) {
      expect(page).toContain(`aria-describedby="${id}-hint ${id}-error"`);
      expect(page).toContain(`<span id="${id}-error" class="field-error"></span>`);
    }
    expect(page).toContain('aria-describedby="markets-error"');
  });
});
