/** One self-contained file with no script and no request (its CSP says so): failures by cause, then every check. */
import type { CheckResult, FailOn, Finding, Outcome } from '../types.js';
import { type CauseGroup, findingFields, groupByCause, MARKUP, printableLines } from './finding.js';
import { gates, verdictLabel } from './gate.js';
import { BODIES_OMITTED, coverageLine, environmentLine, type ReportInput, retriesLine } from './input.js';

/** Text for an element or a quoted attribute (a body can hold `<script>`); controls and bidi shown as escapes. */
export function html(text: string): string {
  return printableLines(text).replace(/[&<>"']/g, (ch) => MARKUP[ch as keyof typeof MARKUP]);
}

const ORDER: Record<Outcome, number> = { FAIL: 0, WARN: 1, SKIP: 2, PASS: 3 };

/** The report's style sheet; the proxy's live page (src/proxy/live-page.ts) serves it too. */
export const REPORT_STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5rem;color:#1b1b1b;background:#fff}
h1{font-size:1.3rem;margin:0 0 .3rem}h2{font-size:1.1rem;margin:1.6rem 0 .5rem}h3{font-size:1rem;margin:0 0 .3rem}
.verdict{font-weight:700;font-size:1.1rem;padding:.4rem .6rem;border-radius:4px;display:inline-block}
.verdict.pass{background:#dcf5dc;color:#0b5d0b}.verdict.fail,.verdict.unreachable,.verdict.not-ready,.verdict.setup-error,.verdict.interrupted{background:#fde0e0;color:#8b0000}
.badge{font-weight:700;padding:0 .35rem;border-radius:3px;font-family:ui-monospace,monospace}
.FAIL{background:#fde0e0;color:#8b0000}.WARN{background:#fff1c2;color:#6b4a00}
.SKIP{background:#e0eefc;color:#0b3f75}.PASS{background:#dcf5dc;color:#0b5d0b}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ddd;padding:.3rem .4rem;text-align:left;vertical-align:top}
code,pre{font-family:ui-monospace,monospace;font-size:12.5px}pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.4rem;margin:.2rem 0}
.cause{border-left:4px solid #8b0000;padding:.2rem .8rem;margin:.8rem 0}.cause.WARN{border-color:#c99a00}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem;margin:.3rem 0}dt{font-weight:600}dd{margin:0}
.muted{color:#555}details{margin:.2rem 0}summary{cursor:pointer}
`;

/** One finding, every value escaped; the proxy's live page renders its findings with it too. */
export function renderFinding(f: Finding): string {
  const value = (label: string, lines: string[]) => {
    if (label === 'request') return lines.map((line) => `<code>${html(line)}</code>`).join('<br>');
    if (label === 'rules') {
      const rule = (v: (typeof f.schemaViolations)[number]) =>
        `<li><code>${html(v.path || '(body)')}</code> ${html(v.message)}${v.schemaPath ? ` <code class="muted">[${html(v.schemaPath)}]</code>` : ''}</li>`;
      return `<ul>${f.schemaViolations.map(rule).join('')}</ul>`;
    }
    if (label === 'body') return `<pre>${html(lines.join(''))}</pre>`;
    if (label === 'repeat') return `<pre class="curl">${html(lines.join(''))}</pre>`;
    return html(lines.join(''));
  };
  const rows = findingFields(f).map(([label, lines]) => `<dt>${label}</dt><dd>${value(label, lines)}</dd>`);
  return `<dl class="finding">${rows.join('')}</dl>`;
}

const anchor = (check: CheckResult) => `check-${check.id}`;

function causeBlock(group: CauseGroup, failOn: FailOn): string {
  const [first] = group.checks;
  const gating = group.outcome === 'WARN' && failOn === 'warn' ? ' (fails this run: --fail-on warn)' : '';
  const heading =
    group.checks.length === 1 && first
      ? `<span class="badge ${group.outcome}">${group.outcome}</span> ${html(first.id)}: ${html(first.title)} (${html(first.citation)})${gating}`
      : `<span class="badge ${group.outcome}">${group.outcome}</span> in ${group.checks.length} checks, one cause${group.status === null ? '' : ` (${group.status})`}: ${html(group.cause)}${gating}`;
  const checks = group.checks.map((c) => `<a href="#${html(anchor(c))}">${html(c.id)}</a>`).join(', ');
  const example = group.findings[0];
  const more =
    group.findings.length > 1
      ? `<p class="muted">${group.findings.length} findings share this cause; each check below shows its own.</p>`
      : '';
  return `<article class="cause ${group.outcome}"><h3>${heading}</h3><p>checks: ${checks}</p>${example ? renderFinding(example) : `<p>${html(first?.message ?? '')}</p>`}${more}</article>`;
}

function checkRows(check: CheckResult, failOn: FailOn): string {
  const gating =
    check.outcome === 'WARN' && gates(check, failOn) ? ' <span class="muted">fails the run</span>' : '';
  const row = `<tr id="${html(anchor(check))}" data-outcome="${check.outcome}"><td><span class="badge ${check.outcome}">${check.outcome}</span>${gating}</td><td><code>${html(check.id)}</code><br>${html(check.title)}</td><td>${check.level}</td><td>${html(check.citation)}</td><td>${html(check.message)}</td></tr>`;
  const extra: string[] = [];
  if (check.findings.length > 0) {
    const open = check.outcome === 'FAIL' || check.outcome === 'WARN' ? ' open' : '';
    extra.push(
      `<details${open}><summary>${check.findings.length} finding(s): what was sent and what came back</summary>${check.findings.map(renderFinding).join('')}</details>`,
    );
  }
  if (check.notes.length > 0) extra.push(`<p class="muted">${check.notes.map(html).join('<br>')}</p>`);
  if (extra.length === 0) return row;
  return `${row}<tr class="details" data-for="${html(check.id)}"><td></td><td colspan="4">${extra.join('')}</td></tr>`;
}

/** @example writeFileSync('conformance.html', renderHtml(applyGate(result, 'warn'))) */
export function renderHtml(result: ReportInput): string {
  const failOn = result.failOn ?? 'fail';
  const { outcome } = result;
  const s = result.summary;
  const mode =
    result.destructive === undefined ? '' : `, ${result.destructive ? 'destructive' : 'read-only'}`;
  const retried = retriesLine(result);
  const environment = environmentLine(result);
  const verdictText = result.unreachable
    ? `${verdictLabel(outcome)}: ${result.unreachable.message}; ${result.unreachable.hint}`
    : `${verdictLabel(outcome)}${result.interrupted ? ` (${result.interrupted})` : ''}: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped (${s.total} checks${s.notSelected > 0 ? `, ${s.notSelected} not selected` : ''}; ${s.requests} requests in ${(result.durationMs / 1000).toFixed(1)} s)${failOn === 'warn' ? '; warnings fail this run (--fail-on warn)' : ''}`;
  const causes = (['FAIL', 'WARN'] as const).flatMap((o) => groupByCause(result.checks, o));
  const ordered = [...result.checks].sort((a, b) => ORDER[a.outcome] - ORDER[b.outcome]);
  const operations = result.coverage
    .map((op) => `${op.operationId} ${op.method} ${op.path}${op.deprecated ? ' (deprecated)' : ''}`)
    .join(' · ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html(`${result.tool}: ${verdictLabel(outcome)} — ${result.baseUrl}`)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>${html(result.tool)} against <code>${html(result.baseUrl)}</code></h1>
<p class="muted">contract ${html(result.contractVersion)}${mode} · started ${html(result.startedAt)} · fail on: ${failOn === 'warn' ? 'failures and warnings' : 'failures'}</p>
<p id="verdict" class="verdict ${outcome}">${html(verdictText)}</p>
<p id="coverage">${html(coverageLine(result.coverage))}</p>
${retried === null ? '' : `<p id="retries">${html(retried)}</p>`}
${result.bodiesOmitted ? `<p id="bodies" class="muted">${html(BODIES_OMITTED)}</p>` : ''}
${environment === null ? '' : `<p id="environment">${html(environment)}</p>`}
${operations ? `<p id="operations" class="muted">Operations: ${html(operations)}</p>` : ''}
</header>
<main>
${causes.length > 0 ? `<section id="causes"><h2>Failures and warnings, one per cause</h2>\n${causes.map((g) => causeBlock(g, failOn)).join('\n')}\n</section>` : ''}
<section id="checks"><h2>Every check (${result.checks.length})</h2>
<table>
<thead><tr><th>Verdict</th><th>Check</th><th>Level</th><th>Cites</th><th>Message</th></tr></thead>
<tbody>
${ordered.map((c) => checkRows(c, failOn)).join('\n')}
</tbody>
</table>
</section>
</main>
</body>
</html>
`;
}
