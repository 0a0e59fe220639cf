/** One testcase per check; a WARN never reads as passed: a failure under `--fail-on warn`, else skipped. */
import type { CheckResult, FailOn, Unreachable } from '../types.js';
import { findingsText, MARKUP, printableLines } from './finding.js';
import { gates } from './gate.js';
import { BODIES_OMITTED, coverageLine, environmentLine, type ReportInput, retriesLine } from './input.js';

/** Text for XML 1.0, which cannot carry most controls (shown as escapes) nor U+FFFE/U+FFFF. */
function xml(text: string): string {
  return printableLines(text).replace(
    /[&<>"\uFFFE\uFFFF]/g,
    (ch) => MARKUP[ch as keyof typeof MARKUP] ?? '\uFFFD',
  );
}

const seconds = (ms: number): string => (ms / 1000).toFixed(3);

function testcase(check: CheckResult, failOn: FailOn): string {
  const open = `    <testcase classname="petstore.conformance.${xml(check.id.split('.')[0] ?? 'check')}" name="${xml(`${check.id}: ${check.title} (${check.citation})`)}" time="${seconds(check.durationMs)}">`;
  const props = `      <properties><property name="outcome" value="${check.outcome}"/><property name="level" value="${check.level}"/><property name="citation" value="${xml(check.citation)}"/></properties>`;
  const body: string[] = [open, props];
  const warning = `WARNING (${check.citation}): ${check.message}`;
  // Every finding in full: a CI report has room.
  const details = findingsText(check.findings, '', true);
  if (check.outcome === 'FAIL') {
    body.push(
      `      <failure message="${xml(check.message)}" type="failure">${xml(details || check.message)}</failure>`,
    );
  } else if (check.outcome === 'SKIP') {
    body.push(`      <skipped message="${xml(check.message)}"/>`);
  } else if (check.outcome === 'WARN' && gates(check, failOn)) {
    body.push(
      `      <failure message="${xml(warning)}" type="warning">${xml(`${warning}\n\n${details}`)}</failure>`,
    );
  } else if (check.outcome === 'WARN') {
    body.push(
      `      <skipped message="${xml(warning)}" type="warning"/>`,
      `      <system-out>${xml(`${warning}\n\n${details}`)}</system-out>`,
    );
  } else if (check.notes.length > 0) {
    body.push(`      <system-out>${xml(check.notes.join('\n'))}</system-out>`);
  }
  body.push('    </testcase>');
  return body.join('\n');
}

/** A run that stopped before judging is one testcase in error, not 40 failures nor an empty (green) suite. */
function stoppedCase(
  reason: Pick<Unreachable, 'message' | 'hint'>,
  outcome: string,
  name = `the target is ready to be judged (${outcome})`,
): string {
  return [
    `    <testcase classname="petstore.conformance.setup" name="${xml(name)}" time="0.000">`,
    `      <error message="${xml(reason.message)}" type="${xml(outcome)}">${xml(`${reason.message}; ${reason.hint}.`)}</error>`,
    '    </testcase>',
  ].join('\n');
}

/** @example writeFileSync('conformance-junit.xml', renderJunit(applyGate(result, 'warn'))) */
export function renderJunit(result: ReportInput): string {
  const failOn = result.failOn ?? 'fail';
  const s = result.summary;
  const name = xml(`${result.tool} ${result.baseUrl}`);
  const warningsFail = failOn === 'warn';
  const failures = s.failed + (warningsFail ? s.warned : 0);
  const skipped = s.skipped + (warningsFail ? 0 : s.warned);
  const stopped = result.unreachable;
  const interrupted = result.interrupted && {
    message: result.interrupted,
    hint: 'the checks after it did not run',
  };
  const attrs = stopped
    ? `tests="1" failures="0" errors="1" skipped="0" time="${seconds(result.durationMs)}"`
    : `tests="${s.total + (result.interrupted ? 1 : 0)}" failures="${failures}" errors="${result.interrupted ? 1 : 0}" skipped="${skipped}" time="${seconds(result.durationMs)}"`;
  const properties: Array<[string, string | null | undefined]> = [
    ['baseUrl', result.baseUrl],
    ['contractVersion', result.contractVersion],
    ['destructive', result.destructive?.toString()],
    ['warnings', String(s.warned)],
    ['failOn', failOn],
    ['coverage', coverageLine(result.coverage)],
    ...result.coverage.map((op): [string, string] => [`stability.${op.operationId}`, op.stability ?? 'none']),
    ['unreachable', stopped?.message],
    ['outcome', stopped ? result.outcome : undefined],
    ['interrupted', result.interrupted || undefined],
    ['outcome', result.interrupted ? 'interrupted' : undefined],
    ['retries', retriesLine(result)],
    ['bodies', result.bodiesOmitted ? BODIES_OMITTED : undefined],
    ['environment', environmentLine(result)],
  ];
  const propertyLines = properties
    .flatMap(([k, v]) => (v == null ? [] : [`      <property name="${xml(k)}" value="${xml(v)}"/>`]))
    .join('\n');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${name}" ${attrs}>`,
    `  <testsuite name="${name}" ${attrs} timestamp="${result.startedAt}">`,
    `    <properties>\n${propertyLines}\n    </properties>`,
    ...(stopped
      ? [stoppedCase(stopped, result.outcome)]
      : result.checks.map((check) => testcase(check, failOn))),
    // A signal stopped the run: one more testcase in error, so that CI shows the run as cut short.
    ...(interrupted ? [stoppedCase(interrupted, 'interrupted', 'the run finished (interrupted)')] : []),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
