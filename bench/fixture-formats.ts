/**
 * Bench scenario 9: the same 100,000 orders as a JSON file and as a hand-written-style YAML file (one flow
 * mapping per order), each started with `petstore mock` in alternating runs. Per format: start to first
 * answer of the full list (the median), resident memory once that answer is sent, and the process's peak.
 * The targets: YAML within 1.5× of JSON, and at most 200 MB resident with 100,000 orders.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FormatFigures {
  /** Start to first answer, median of the runs, ms. */
  firstAnswerMs: number;
  /** Resident memory just after the first answer, median, MB. */
  rssMb: number;
  /** The process's peak resident memory (VmHWM), median, MB. */
  peakRssMb: number;
}

export interface FixtureFormatFigures {
  orders: number;
  runs: number;
  json: FormatFigures;
  yaml: FormatFigures;
}

export interface FormatsHarness {
  /** Starts `petstore mock` with these fixtures; resolves at its first 200 to the list. */
  start: (fixtures: string) => Promise<{ child: ChildProcess; readyMs: number }>;
  stop: (child: ChildProcess) => Promise<void>;
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

function memoryMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** The JSON fixture again as YAML, written the way a person would: one `{ … }` line per order. */
export function writeYamlTwin(jsonPath: string, yamlPath: string): void {
  const data = JSON.parse(readFileSync(jsonPath, 'utf8')) as {
    apiKeys: string[];
    pets: Array<Record<string, unknown>>;
    petsSunset: string;
    orders: Array<Record<string, unknown>>;
  };
  const flow = (item: Record<string, unknown>) =>
    `{ ${Object.entries(item)
      .map(([key, value]) => `${key}: ${String(value)}`)
      .join(', ')} }`;
  const lines = [
    '# The benchmark fixture, as YAML.',
    `apiKeys: [${data.apiKeys.join(', ')}]`,
    `petsSunset: ${data.petsSunset}`,
    'pets:',
    ...data.pets.map((pet) => `  - ${flow(pet)}`),
    'orders:',
    ...data.orders.map((order) => `  - ${flow(order)}`),
  ];
  writeFileSync(yamlPath, `${lines.join('\n')}\n`);
}

/**
 * Runs the scenario: `runs` alternating starts of each format.
 *
 * @example await fixtureFormatsScenario(harness, '/tmp/orders-100000.json', workDir, 100_000, 3)
 */
export async function fixtureFormatsScenario(
  harness: FormatsHarness,
  jsonPath: string,
  workDir: string,
  orders: number,
  runs: number,
): Promise<FixtureFormatFigures> {
  const yamlPath = join(workDir, 'orders-twin.yaml');
  writeYamlTwin(jsonPath, yamlPath);
  const samples = { json: [] as FormatFigures[], yaml: [] as FormatFigures[] };
  for (let run = 0; run < runs; run++) {
    for (const format of ['json', 'yaml'] as const) {
      process.stderr.write(`  9 fixture formats: ${format}, run ${run + 1} of ${runs}\n`);
      const { child, readyMs } = await harness.start(format === 'json' ? jsonPath : yamlPath);
      try {
        const pid = child.pid ?? 0;
        samples[format].push({
          firstAnswerMs: readyMs,
          rssMb: memoryMb(pid, 'VmRSS'),
          peakRssMb: memoryMb(pid, 'VmHWM'),
        });
      } finally {
        await harness.stop(child);
      }
    }
  }
  const summary = (list: FormatFigures[]): FormatFigures => ({
    firstAnswerMs: median(list.map((s) => s.firstAnswerMs)),
    rssMb: median(list.map((s) => s.rssMb)),
    peakRssMb: median(list.map((s) => s.peakRssMb)),
  });
  return { orders, runs, json: summary(samples.json), yaml: summary(samples.yaml) };
}
