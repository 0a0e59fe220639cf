/** `GET /__proxy/`, polling `/__proxy/live?since=N`: values escaped, parsed inert, a CSP of our files. */
import { html, REPORT_STYLE, renderFinding } from '../judge/report/html.js';
import { type FindingLog, LABELS, type ProxyFinding } from './findings.js';
import { ownAnswer, type ProxyErrorResponse } from './proxy-errors.js';

/** The most findings the page shows (the newest); each poll sends at most this many. */
export const LIVE_PAGE_FINDINGS = 200;

/** Only the proxy's own files, no framing. */
export const LIVE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page's answers are never cached, framed or sniffed, and live under its CSP. */
const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': LIVE_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
export const pageAnswer = (type: string, body: string, name = 'page') =>
  ownAnswer(200, type, body, name, PAGE_HEADERS);

/** One finding as an `<article>`: its verdict, rule, citation and exchange, then the report's block. */
export function renderLiveFinding(f: ProxyFinding): string {
  const label = LABELS[f.party][f.level];
  const outcome = f.status === null ? 'no answer' : String(f.status);
  return `<article class="cause ${label === 'FAIL' ? 'FAIL' : 'WARN'}" data-seq="${f.seq}" data-rule="${html(f.rule)}"><h3><span class="badge ${label === 'CLIENT' ? 'SKIP' : label}">${label}</span> ${html(f.method)} ${html(f.path)} → ${html(outcome)}: <code>${html(f.rule)}</code> (${html(f.citation)})</h3><p class="muted">exchange #${f.exchange} · ${html(f.scope)} · ${html(f.at)}</p>${renderFinding(f.finding)}</article>`;
}

export type LiveSummary = FindingLog['tallies'] & { exchanges: number; total: number };

/** The count line the page shows, also sent with each poll. */
export function summaryLine(s: LiveSummary): string {
  return `${s.exchanges} exchange(s) seen · ${s.failures} failure(s), ${s.warnings} warning(s) from the server, ${s.client} from the client · ${s.total} finding(s) in all, the newest ${LIVE_PAGE_FINDINGS} shown`;
}

/** `/__proxy/live`: the count line and the newest of `findings`, rendered. */
export function liveAnswer(summary: LiveSummary, findings: readonly ProxyFinding[]): ProxyErrorResponse {
  const body = JSON.stringify({
    summary: { ...summary, line: summaryLine(summary) },
    findings: findings.slice(-LIVE_PAGE_FINDINGS).map((f) => ({ seq: f.seq, html: renderLiveFinding(f) })),
  });
  return pageAnswer('application/json', body, 'live');
}

export function renderLivePage(
  upstream: string,
  findings: readonly ProxyFinding[],
  summary: LiveSummary,
): string {
  const newest = findings.slice(-LIVE_PAGE_FINDINGS).reverse();
  const last = findings.at(-1)?.seq ?? 0;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(`petstore proxy: live findings — ${upstream}`)}</title>
<link rel="stylesheet" href="/__proxy/page.css">
<script src="/__proxy/page.js" defer></script>
</head>
<body data-since="${last}" data-limit="${LIVE_PAGE_FINDINGS}">
<header>
<h1>petstore proxy in front of <code>${html(upstream)}</code></h1>
<p id="summary" class="verdict ${summary.failures > 0 ? 'fail' : 'pass'}">${html(summaryLine(summary))}</p>
<p id="status" class="muted">live: new findings appear here as the proxy makes them</p>
</header>
<main>
<section id="findings">
${newest.map(renderLiveFinding).join('\n')}
</section>
</main>
</body>
</html>
`;
}

export const LIVE_PAGE_STYLE = `${REPORT_STYLE}
#status.stale{color:#8b0000}
article.cause h3 code{font-size:inherit}
`;

/** `/__proxy/page.js`: plain ES2020; text only through `textContent`, markup only our own, parsed inert. */
export const LIVE_PAGE_SCRIPT = `'use strict';
(() => {
  const list = document.getElementById('findings');
  const summary = document.getElementById('summary');
  const status = document.getElementById('status');
  const limit = Number(document.body.dataset.limit) || 200;
  let since = Number(document.body.dataset.since) || 0;

  async function poll() {
    try {
      const response = await fetch('/__proxy/live?since=' + since, { cache: 'no-store', credentials: 'omit' });
      if (!response.ok) throw new Error('HTTP ' + response.status);
      const page = await response.json();
      for (const item of page.findings) {
        const article = new DOMParser().parseFromString(item.html, 'text/html').body.firstElementChild;
        if (article && article.tagName === 'ARTICLE') list.prepend(document.importNode(article, true));
        since = Math.max(since, item.seq);
      }
      while (list.children.length > limit) list.lastElementChild.remove();
      summary.textContent = page.summary.line;
      summary.className = 'verdict ' + (page.summary.failures > 0 ? 'fail' : 'pass');
      status.textContent = 'live: updated ' + new Date().toLocaleTimeString();
      status.className = 'muted';
    } catch (error) {
      status.textContent = 'not updated: ' + String(error && error.message ? error.message : error);
      status.className = 'stale';
    }
    setTimeout(poll, 500);
  }
  poll();
})();
`;
