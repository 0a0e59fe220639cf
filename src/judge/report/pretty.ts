/** The human report: a line per check, the operations (D13), coverage, then findings grouped by cause. */
import type { OperationCoverage, Outcome } from '../types.js';
import { type CauseGroup, findingLines, groupByCause, printable } from './finding.js';
import { verdictLabel } from './gate.js';
import { BODIES_OMITTED, coverageLine, environmentLine, type ReportInput, retriesLine } from './input.js';

/** Per group in a terminal; the json report has them all. */
const FINDINGS_SHOWN = 5;

const COLOURS: Record<Outcome, string> = { PASS: '32', FAIL: '31', WARN: '33', SKIP: '36' };

function paint(text: string, code: string, on: boolean): string {
  return on ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** `color`: ANSI colours, which the CLI turns on only for a TTY without NO_COLOR. */
export function renderPretty(result: ReportInput, { color }: { color: boolean }): string {
  const failOn = result.failOn ?? 'fail';
  const lines: string[] = [];
  const mode =
    result.destructive === undefined ? '' : `, ${result.destructive ? 'destructive' : 'read-only'}`;
  lines.push(
    result.tool === 'petstore proxy'
      ? `petstore proxy in front of ${printable(result.baseUrl)} (contract ${result.contractVersion})`
      : `${result.tool} against ${printable(result.baseUrl)} (contract ${result.contractVersion}${mode})`,
  );
  const retried = retriesLine(result);
  const environment = environmentLine(result);
  if (result.unreachable) {
    // Nothing was judged: the reason is the whole report (exit 2).
    lines.push(
      `${paint(verdictLabel(result.outcome), COLOURS.FAIL, color)}  ${printable(`${result.unreachable.message}; ${result.unreachable.hint}`)}`,
    );
    if (retried !== null) lines.push(printable(retried));
    return `${lines.join('\n')}\n`;
  }
  if (result.bodiesOmitted) lines.push(BODIES_OMITTED);
  lines.push('');
  const width = Math.max(0, ...result.checks.map((c) => c.id.length));
  for (const check of result.checks) {
    const detail = check.outcome === 'PASS' ? '' : printable(` — ${check.message}`);
    const outcome = paint(check.outcome.padEnd(4), COLOURS[check.outcome], color);
    lines.push(`${outcome}  ${check.id.padEnd(width)}  ${check.title} (${check.citation})${detail}`);
  }
  lines.push('');
  const stability = (op: OperationCoverage) =>
    `${op.stability ? `x-stability: ${op.stability}` : 'no stability marker'}${op.deprecated ? ', deprecated' : ''}`;
  lines.push(
    `Operations (D13): ${result.coverage.map((op) => `${op.operationId} ${op.method} ${op.path} [${stability(op)}]`).join(' · ')}`,
  );
  lines.push(coverageLine(result.coverage));
  if (retried !== null) lines.push(printable(retried));
  if (environment !== null) lines.push(printable(environment));
  let number = 0;
  for (const outcome of ['FAIL', 'WARN'] as const) {
    const label = outcome === 'FAIL' ? 'Failures' : 'Warnings';
    const groups = groupByCause(result.checks, outcome);
    if (groups.length === 0) continue;
    const gating = outcome === 'WARN' && failOn === 'warn' ? ' (they fail this run: --fail-on warn)' : '';
    lines.push('', paint(`${label}${gating}:`, COLOURS[outcome], color));
    for (const group of groups) lines.push('', ...groupLines(group, ++number));
  }
  const s = result.summary;
  const notSelected = s.notSelected > 0 ? `, ${s.notSelected} not selected by --only` : '';
  const passed = result.outcome === 'pass';
  if (result.interrupted) lines.push('', printable(`Interrupted: ${result.interrupted}`));
  lines.push(
    '',
    `${paint(verdictLabel(result.outcome), passed ? COLOURS.PASS : COLOURS.FAIL, color)}: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped (${s.total} check${s.total === 1 ? '' : 's'}${notSelected}; ${s.requests} request${s.requests === 1 ? '' : 's'} in ${(result.durationMs / 1000).toFixed(1)} s)${failOn === 'warn' && s.warned > 0 ? '; warnings fail this run (--fail-on warn)' : ''}`,
  );
  return `${lines.join('\n')}\n`;
}

/** One cause: a single check with its own findings, or a shared cause once, with its first finding. */
function groupLines(group: CauseGroup, number: number): string[] {
  const [only] = group.checks;
  const lines: string[] = [];
  if (group.checks.length === 1 && only) {
    lines.push(`${number}) ${only.outcome} ${only.id}: ${only.title} (${only.citation})`);
    if (group.findings.length === 0) lines.push(`   ${printable(only.message)}`);
  } else {
    const status = group.status === null ? '' : ` (${group.status})`;
    lines.push(
      `${number}) ${group.outcome} in ${group.checks.length} checks, one cause${status}: ${printable(group.cause)}`,
      `   checks: ${group.checks.map((c) => c.id).join(', ')}`,
    );
    if (group.findings.length > 0) lines.push('   first seen:');
  }
  const shown =
    group.checks.length === 1 ? group.findings.slice(0, FINDINGS_SHOWN) : group.findings.slice(0, 1);
  shown.forEach((f, i) => {
    if (i > 0) lines.push('');
    lines.push(...findingLines(f, '   '));
  });
  const hidden = group.findings.length - shown.length;
  if (hidden > 0) lines.push(`   … ${hidden} more finding(s) of this cause in the json and junit reports`);
  return lines;
}
