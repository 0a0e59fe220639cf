/**
 * The human report: one line per check, the operations with their stability markers (D13), the spec
 * coverage line, then the details of every failure and warning with a curl line to repeat the request.
 */
import type { CheckResult, ConformanceResult, OperationCoverage, Outcome } from '../types.js';
import { findingLines, printable } from './finding.js';

export interface PrettyOptions {
  /** ANSI colours; the CLI turns them on only for a TTY without NO_COLOR. */
  color: boolean;
}

const COLOURS: Record<Outcome, string> = { PASS: '32', FAIL: '31', WARN: '33', SKIP: '36' };

function paint(text: string, code: string, on: boolean): string {
  return on ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function checkLine(check: CheckResult, width: number, color: boolean): string {
  const outcome = paint(check.outcome.padEnd(4), COLOURS[check.outcome], color);
  const detail = check.outcome === 'PASS' ? '' : ` — ${check.message}`;
  return `${outcome}  ${check.id.padEnd(width)}  ${check.title} (${check.citation})${printable(detail)}`;
}

function stability(op: OperationCoverage): string {
  const marker = op.stability ? `x-stability: ${op.stability}` : 'no stability marker';
  return op.deprecated ? `${marker}, deprecated` : marker;
}

/** The spec-coverage line: which documented responses of each operation this run received. */
export function coverageLine(coverage: readonly OperationCoverage[]): string {
  const parts = coverage.map((op) => {
    const missing = op.documented.filter((s) => !op.exercised.includes(s));
    const seen = op.exercised.length > 0 ? op.exercised.join(' ') : 'none';
    return `${op.operationId} ${op.exercised.length}/${op.documented.length} (${seen}${missing.length > 0 ? `; not exercised: ${missing.join(' ')}` : ''})`;
  });
  const total = coverage.reduce((n, op) => n + op.documented.length, 0);
  const exercised = coverage.reduce((n, op) => n + op.exercised.length, 0);
  return `Spec coverage: ${exercised}/${total} documented responses: ${parts.join(' · ')}`;
}

/**
 * Renders a result as text.
 *
 * @example process.stdout.write(renderPretty(result, { color: false }))
 */
export function renderPretty(result: ConformanceResult, options: PrettyOptions): string {
  const { color } = options;
  const lines: string[] = [];
  lines.push(
    result.tool === 'petstore proxy'
      ? `petstore proxy in front of ${printable(result.baseUrl)} (contract ${result.contractVersion})`
      : `petstore conformance against ${printable(result.baseUrl)} (contract ${result.contractVersion}, ${result.destructive ? 'destructive' : 'read-only'})`,
  );
  if (result.unreachable) {
    lines.push(
      `${paint('UNREACHABLE', COLOURS.FAIL, color)}  ${printable(result.unreachable.message)}; ${result.unreachable.hint}`,
    );
    return `${lines.join('\n')}\n`;
  }
  lines.push('');
  const width = Math.max(0, ...result.checks.map((c) => c.id.length));
  for (const check of result.checks) lines.push(checkLine(check, width, color));
  lines.push('');
  lines.push(
    `Operations (D13): ${result.coverage.map((op) => `${op.operationId} ${op.method} ${op.path} [${stability(op)}]`).join(' · ')}`,
  );
  lines.push(coverageLine(result.coverage));
  for (const [label, outcome] of [
    ['Failures', 'FAIL'],
    ['Warnings', 'WARN'],
  ] as const) {
    const listed = result.checks.filter((c) => c.outcome === outcome);
    if (listed.length === 0) continue;
    lines.push('', paint(`${label}:`, COLOURS[outcome], color));
    listed.forEach((check, index) => {
      lines.push('', `${index + 1}) ${check.outcome} ${check.id}: ${check.title} (${check.citation})`);
      if (check.findings.length === 0) lines.push(`   ${printable(check.message)}`);
      check.findings.slice(0, 5).forEach((f, i) => {
        if (i > 0) lines.push('');
        lines.push(...findingLines(f, '   '));
      });
      if (check.findings.length > 5)
        lines.push(`   … ${check.findings.length - 5} more finding(s) in the json report`);
    });
  }
  const s = result.summary;
  const notSelected = s.notSelected > 0 ? `, ${s.notSelected} not selected by --only` : '';
  lines.push(
    '',
    `${paint(result.outcome === 'pass' ? 'PASSED' : 'FAILED', result.outcome === 'pass' ? COLOURS.PASS : COLOURS.FAIL, color)}: ${s.passed} passed, ${s.failed} failed, ${s.warned} warned, ${s.skipped} skipped (${s.total} check${s.total === 1 ? '' : 's'}${notSelected}; ${s.requests} request${s.requests === 1 ? '' : 's'} in ${(result.durationMs / 1000).toFixed(1)} s)`,
  );
  return `${lines.join('\n')}\n`;
}
