import { html, jsonForScript, type SafeHtml } from './html';

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** Page data for the page script (rendered as JSON in #page-data). */
  data?: unknown;
  /** Scripts under /oauth-assets/, loaded as modules. */
  scripts?: readonly string[];
}

export const ASSETS_PATH = '/oauth-assets';

/** The shell of every page of the authorization server: local assets only, no third-party requests. */
export function renderPage(options: PageOptions): string {
  const data =
    options.data === undefined
      ? ''
      : html`<script type="application/json" id="page-data">${jsonForScript(options.data)}</script>`;
  const scripts = (options.scripts ?? []).map((s) => html`<script type="module" src="${ASSETS_PATH}/${s}"></script>`);
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · Paper Perps</title>
<link rel="stylesheet" href="${ASSETS_PATH}/oauth.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="site-header"><span class="brand">Paper Perps</span> <span class="brand-sub">Wallet connections</span></header>
<main id="main" tabindex="-1">
${options.body}
</main>
${data}
${scripts}
</body>
</html>`.value
  }`;
}

/** A page that explains a problem in plain words and what to do next. */
export function renderErrorPage(title: string, message: string, hint?: string, status?: string): string {
  return renderPage({
    title,
    body: html`<section class="card" aria-labelledby="error-title">
<h1 id="error-title">${title}</h1>
<p class="error-message" role="alert">${message}</p>
${hint ? html`<p>${hint}</p>` : ''}
${status ? html`<p class="muted">Reference: <code>${status}</code></p>` : ''}
</section>`,
  });
}
