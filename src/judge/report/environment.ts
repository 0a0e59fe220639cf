/** The line every report gives a run that saw other clients at work, or was told how to judge them (D16). */
import type { ReportInput } from './input.js';

/** @example environmentLine(result) // 'Live environment: 3 changes by other clients seen; judged in shared mode (D16): …' */
export function environmentLine(input: Pick<ReportInput, 'environment'>): string | null {
  const env = input.environment;
  if (env === undefined || (!env.live && env.setBy === 'default')) return null;
  const seen = `${env.changesByOthers} change${env.changesByOthers === 1 ? '' : 's'} by other clients seen`;
  const mode =
    env.mode === 'shared'
      ? 'judged in shared mode (D16): a change to an order no request of the suite named is a warning that another client may have made it'
      : 'judged as the only client (--sole-client, D16): every change the suite did not make is a failure';
  const head = env.live ? `Live environment: ${seen}` : 'No change by other clients seen';
  return `${head}; ${mode}. ${env.reason}`;
}
