// Checks drawn from the run's contract: a secured operation refuses a missing and a wrong key (§5, D6), a
// constrained parameter an invalid value (D21). D19: path parameters get an unused id.

import type { Contract, OperationSpec } from '../../contract/index.js';
import type { ParameterSpec } from '../../contract/parameters.js';
import { type RequestPlan, VALID_AUTH } from '../../judge/exchange.js';
import { EXPECT_401, finding, is4xx, type Judgement, skip, verdict } from '../../judge/rules.js';
import type { Finding } from '../../judge/types.js';
import type { CheckContext } from '../context.js';
import { AUTH_COVERED, AUTH_VARIANTS } from './auth.js';
import { type Check, defineCheck, expect401, expectStatus, NO_UNUSED_ID, statusOf } from './check.js';

const SAFE_METHODS = new Set(['get', 'head']);

const AUTH_CASES = AUTH_VARIANTS.slice(0, 2).map((v) => ({
  ...v,
  name: v.name === 'no-header' ? 'auth-missing' : `auth-${v.name}`,
}));

/** The operation's path, its path parameters an unused order id; `null` when none is known. */
async function fillPath(ctx: CheckContext, operation: OperationSpec): Promise<string | null> {
  if (!operation.parameters.some((p) => p.in === 'path')) return operation.path;
  const id = await ctx.unknownOrderId();
  return id === null ? null : ctx.pathOf(operation.operationId, id);
}

function authChecks(operation: OperationSpec): Check[] {
  const { operationId, method } = operation;
  const hasPathParameters = operation.parameters.some((p) => p.in === 'path');
  return AUTH_CASES.map((variant) =>
    defineCheck({
      id: `generic.${operationId}.${variant.name}`,
      title: `${operationId} with ${variant.label} is refused`,
      citation: '§5, D6',
      operationId,
      sends: `${method.toUpperCase()} ${operation.path} with ${variant.label}${hasPathParameters ? ', path parameters set to an id no listed order has' : ''}`,
      passes: EXPECT_401,
      ...(SAFE_METHODS.has(method) || hasPathParameters ? {} : { needs: { destructive: true } }),
      async run(ctx) {
        const path = await fillPath(ctx, operation);
        if (path === null) return skip(NO_UNUSED_ID, null);
        const exchange = await ctx.request({ method: method.toUpperCase(), path, auth: variant.auth });
        return verdict([expect401(ctx, exchange)], '401 with a valid Error body');
      },
    }),
  );
}

/** Texts a parameter's schema refuses, drawn from its constraints and confirmed by the contract. */
export function invalidValues(contract: Contract, operationId: string, param: ParameterSpec): string[] {
  const { schema } = param;
  const candidates: string[] = [];
  if (schema.type === 'integer' || schema.type === 'number') candidates.push('abc');
  if (schema.type === 'integer') candidates.push('1.5');
  if (schema.type === 'boolean') candidates.push('maybe');
  if (typeof schema.minimum === 'number') candidates.push(String(schema.minimum - 1));
  if (typeof schema.exclusiveMinimum === 'number') candidates.push(String(schema.exclusiveMinimum));
  if (typeof schema.maximum === 'number') candidates.push(String(schema.maximum + 1));
  if (typeof schema.exclusiveMaximum === 'number') candidates.push(String(schema.exclusiveMaximum));
  if (Array.isArray(schema.enum)) candidates.push('petstore-conformance-not-in-enum');
  if (typeof schema.pattern === 'string') candidates.push('', '!', '~ ~');
  if (typeof schema.minLength === 'number' && schema.minLength > 0) candidates.push('');
  if (typeof schema.maxLength === 'number') candidates.push('x'.repeat(schema.maxLength + 1));
  const refused = candidates.filter(
    (text) => !contract.validateParameter(operationId, param.in, param.name, text).ok,
  );
  return [...new Set(refused)];
}

/** A value the document allows, for a required parameter beside the one under test. */
function validValue(param: ParameterSpec): string {
  const { schema } = param;
  const chosen =
    schema.default ?? schema.example ?? (Array.isArray(schema.enum) ? schema.enum[0] : undefined);
  if (chosen !== undefined) return String(chosen);
  if (typeof schema.minimum === 'number') return String(schema.minimum);
  return schema.type === 'integer' || schema.type === 'number' ? '1' : 'x';
}

function withParameter(op: OperationSpec, path: string, tested: ParameterSpec, text: string): RequestPlan {
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const param of op.parameters) {
    const value = param === tested ? text : param.required ? validValue(param) : null;
    if (value === null) continue;
    if (param.in === 'query') query.append(param.name, value);
    if (param.in === 'header') headers[param.name.toLowerCase()] = value;
  }
  return {
    method: op.method.toUpperCase(),
    path: query.size === 0 ? path : `${path}?${query}`,
    auth: VALID_AUTH,
    headers,
  };
}

const EXPECT_REFUSED = '400 or 422 (any 4xx); a 2xx is a warning (D21)';

function parameterCheck(contract: Contract, operation: OperationSpec, param: ParameterSpec): Check | null {
  const values = invalidValues(contract, operation.operationId, param);
  if (values.length === 0) return null;
  const { operationId } = operation;
  const shown = values.map((v) => JSON.stringify(v)).join(', ');
  return defineCheck({
    id: `generic.${operationId}.param.${param.name}.invalid`,
    title: `${operationId} refuses an invalid ${param.in} parameter \`${param.name}\``,
    citation: '§2, D21',
    operationId,
    sends: `${operation.method.toUpperCase()} ${operation.path} with the key and ${param.in} \`${param.name}\` set to each of ${shown}`,
    passes: `${EXPECT_REFUSED}; a 5xx is a failure`,
    async run(ctx): Promise<Judgement> {
      const path = await fillPath(ctx, operation);
      if (path === null) return skip(NO_UNUSED_ID, null);
      const failures: Array<Finding | null> = [];
      const warnings: Finding[] = [];
      for (const text of values) {
        const exchange = await ctx.request(withParameter(operation, path, param, text));
        const status = statusOf(exchange) ?? 0;
        // D21: any 4xx passes (its body is the shared rules' matter), a 2xx is a warning, the rest fails.
        if (status < 200 || status > 299)
          failures.push(expectStatus(ctx, exchange, is4xx, EXPECT_REFUSED, []));
        else {
          const accepted = `accepted the invalid value ${JSON.stringify(text)} with ${status}`;
          const { method } = exchange.request;
          warnings.push(finding(exchange, ctx.key, `${method} ${exchange.path} ${accepted}`, EXPECT_REFUSED));
        }
      }
      const refused = `each refused with a 4xx (${shown})`;
      const failed = verdict(failures, refused);
      return failed.kind === 'violation' ? failed : verdict(warnings, refused, [], 'warning');
    },
  });
}

/** The generic checks of a contract, in the document's order, except the auth checks `auth.ts` covers. */
export function genericChecks(contract: Contract): Check[] {
  return contract.operations.flatMap((operation) => {
    const auth =
      operation.security.length > 0 && !AUTH_COVERED.has(operation.operationId) ? authChecks(operation) : [];
    const params = SAFE_METHODS.has(operation.method)
      ? operation.parameters
          .filter((p) => p.in === 'query' || (p.in === 'header' && p.name.toLowerCase() !== 'authorization'))
          .flatMap((p) => parameterCheck(contract, operation, p) ?? [])
      : [];
    return [...auth, ...params];
  });
}
