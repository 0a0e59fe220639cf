/** The sweeps (§7, D4, D5, D15): they send nothing, and take what `judgeExchange` found on every answer. */
import { is4xx, skip, verdict } from '../../judge/rules.js';
import { type Check, defineCheck, statusOf } from './check.js';

export const SWEEP_CHECKS: readonly Check[] = [
  defineCheck({
    id: 'errors.contract',
    title: 'every error response is a valid Error with the right status',
    citation: '§2, §7, D4, D5, D15',
    sends: 'nothing of its own: judges every 4xx answer of the run on a documented operation (except D3/D9)',
    passes:
      'application/json (a charset is fine), a valid Error (code a non-empty string, message a string, status an integer) whose status equals the HTTP status',
    sweep: true,
    async run(ctx) {
      // D10: on a target that does not serve the deprecated pet read, only its 401s are judged.
      const petsServed = (await ctx.petProbe()).served === 'yes';
      const judged = ctx.exchanges.filter(
        (e) =>
          e.errorRule?.level === 'failure' &&
          // D3, D9: those answers' own sweeps (cancel.*.error-body) judge them, at their level.
          !['D3', 'D9'].includes(e.errorRule.source) &&
          e.outcome.ok &&
          is4xx(e.outcome.value.status) &&
          (petsServed || e.operationId !== 'getPet' || e.outcome.value.status === 401),
      );
      if (judged.length === 0) return skip('no error response was received in this run', null);
      return verdict(
        judged.map((e) => {
          // The shared Error-body finding; a status it faults is the sending check's matter.
          const body = e.judged.find(
            (f) =>
              (f.rule === 'error-body' || (f.rule === 'auth' && statusOf(e) === 401)) &&
              f.level === 'failure',
          );
          return body
            ? { ...body.finding, expected: 'an Error body whose status equals the HTTP status' }
            : null;
        }),
        `${judged.length} error response(s), all valid`,
      );
    },
  }),
  defineCheck({
    id: 'server-errors.none',
    title: 'no response anywhere is 5xx',
    citation: '§7, D9, D10',
    sends: 'nothing of its own: judges every answer of the run',
    passes: 'no status from 500 to 599',
    sweep: true,
    async run(ctx) {
      const answered = ctx.exchanges.filter((e) => e.outcome.ok);
      if (answered.length === 0) return skip('no response was received in this run', null);
      return verdict(
        answered.flatMap((e) =>
          e.judged
            .filter((f) => f.rule === 'server-error')
            .map((f) => ({ ...f.finding, message: `${f.finding.message} (sent by ${e.checkId})` })),
        ),
        // The fuzz phase's answers are not kept: fuzz.invariants judges them, so this line must not claim them.
        `${answered.length} response(s) of the checks, none 5xx${ctx.notKept > 0 ? `; the fuzz phase's ${ctx.notKept} request(s) are judged by fuzz.invariants` : ''}`,
      );
    },
  }),
];
