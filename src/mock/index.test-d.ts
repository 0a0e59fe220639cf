/** The public API other code is written against (the conformance suite, implementers' tests). */
import { describe, expectTypeOf, it } from 'vitest';
import type { Order } from '../client/index.js';
import type { FixtureSet } from './fixtures.js';
import {
  createMock,
  type FaultPlanInput,
  type FixtureData,
  type FixtureError,
  type ListenInfo,
  type Mock,
  type MockControl,
  type MockOptions,
} from './index.js';

describe('the mock API', () => {
  it('creates a mock from options, asynchronously', () => {
    expectTypeOf(createMock).parameter(0).toEqualTypeOf<MockOptions | undefined>();
    expectTypeOf(createMock).returns.toEqualTypeOf<Promise<Mock>>();
  });

  it('takes a fixture path, fixture data with exact ids, or fixtures already loaded', () => {
    expectTypeOf<MockOptions['fixtures']>().toEqualTypeOf<string | FixtureData | FixtureSet | undefined>();
    expectTypeOf<NonNullable<FixtureData['orders']>[number]['id']>().toEqualTypeOf<
      number | bigint | `${bigint}` | undefined
    >();
    // What the typed client listed seeds the mock unchanged (issue 24).
    expectTypeOf<NonNullable<Order['id']>>().toExtend<NonNullable<FixtureData['orders']>[number]['id']>();
    expectTypeOf<Order[]>().toExtend<NonNullable<FixtureData['orders']>>();
    expectTypeOf<MockOptions['log']>().toEqualTypeOf<((line: string) => void) | undefined>();
  });

  it('handles WHATWG requests and listens on a port', () => {
    expectTypeOf<Mock['handle']>().toEqualTypeOf<(request: Request) => Promise<Response>>();
    expectTypeOf<Awaited<ReturnType<Mock['listen']>>>().toEqualTypeOf<ListenInfo>();
    expectTypeOf<ListenInfo>().toEqualTypeOf<{ url: string; baseUrl: string; port: number }>();
    expectTypeOf<Mock['apiKeys']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<Mock['reset']>().returns.toEqualTypeOf<Promise<void>>();
    expectTypeOf<Mock>().toMatchTypeOf<MockControl>();
    expectTypeOf<Parameters<Mock['fault']>[0]>().toEqualTypeOf<FaultPlanInput>();
    expectTypeOf<Awaited<ReturnType<Mock['orders']>>[number]['id']>().toEqualTypeOf<string>();
    expectTypeOf<Mock['close']>().returns.toEqualTypeOf<Promise<void>>();
  });

  it('plans a fault with the message a screen shows, only beside a status (issue 24)', () => {
    expectTypeOf({ status: 503, message: 'Back soon.' }).toExtend<FaultPlanInput>();
    expectTypeOf({ drop: true as const, message: 'Back soon.' }).not.toExtend<FaultPlanInput>();
    expectTypeOf({ delayMs: 100, message: 'Back soon.' }).not.toExtend<FaultPlanInput>();
  });

  it('reports bad fixtures as a FixtureError naming each problem', () => {
    expectTypeOf<FixtureError>().toMatchTypeOf<Error>();
    expectTypeOf<FixtureError['problems']>().toEqualTypeOf<readonly string[]>();
  });
});
