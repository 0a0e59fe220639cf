/** The deprecated pet read (§9, D11): served with the documented Deprecation and Sunset headers. */
import { documentedHeaders, documentedHeaderViolations } from '../../judge/documented-headers.js';
import { finding, pass, skip, verdict } from '../../judge/rules.js';
import { type Check, defineCheck, statusOf } from './check.js';

export const PETS_CHECKS: readonly Check[] = [
  defineCheck({
    id: 'pets.deprecation',
    title: 'the deprecated GET /pets/{petId} announces its deprecation',
    citation: '§9, D11',
    level: 'warning',
    operationId: 'getPet',
    sends:
      'GET /pets/{petId} with the key; the pet id from --pet-id, else the petId of the first listed order',
    passes:
      'if the target serves it: the documented Deprecation (`@<epoch seconds>`, RFC 9745) and Sunset (an HTTP-date, RFC 8594) headers are present and match their schemas in the document',
    async run(ctx) {
      const probe = await ctx.petProbe();
      const { exchange } = probe;
      if (exchange && !exchange.outcome.ok)
        return verdict(
          exchange.judged.map((f) => f.finding),
          '',
        );
      if (exchange && statusOf(exchange) === 410)
        return pass(`GET /pets/${probe.petId} answered 410 Gone: the deprecated read is retired (D11)`);
      if (probe.served !== 'yes' || !exchange?.outcome.ok) {
        const answered = exchange
          ? ` (GET /pets/${probe.petId} answered ${statusOf(exchange)} without a Deprecation header)`
          : '';
        return skip(
          `the target does not show that it serves GET /pets/{petId}${answered}; pet id: ${probe.source}`,
          '--pet-id ID',
        );
      }
      // D11: the shared rules stop before the headers at a 5xx or an undocumented status: judged here then.
      const shared = exchange.judged.filter((f) => f.citation === '§9, D11').map((f) => f.finding);
      const { contract } = ctx.options;
      const where = `GET /pets/${probe.petId} answered ${statusOf(exchange)}`;
      const broken =
        shared.length > 0
          ? shared
          : documentedHeaderViolations(contract, 'getPet', 200, exchange.outcome.value.headers).map((p) =>
              finding(exchange, ctx.key, `${where} ${p.message}`, p.expected, p.violations),
            );
      const names = documentedHeaders(contract, 'getPet', 200).map((h) => h.shownAs);
      return verdict(broken, `${names.join(' and ')} present and valid`, [
        `pet id ${probe.petId} (${probe.source})`,
      ]);
    },
  }),
];
