/**
 * Every `x-petstore-*` extension of the document is either read by code (changing it changes behaviour;
 * each reader has its own test for that) or marked `descriptive: true`. A descriptive block states what
 * the code does, so here it is held equal to what the mock really answers: the document cannot drift
 * from the behaviour it describes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { packageRoot } from '../src/contract/package-root.js';
import { createMock, DEV_API_KEY } from '../src/mock/index.js';

/** The extensions that code reads, and the module that reads each from the document. */
const READ_BY_CODE: Readonly<Record<string, string>> = {
  'x-petstore-order-states': 'src/contract/build.ts',
  'x-petstore-conformance': 'src/contract/build.ts',
  'x-petstore-cors': 'src/mock/cors.ts',
  'x-petstore-faults': 'src/mock/faults.ts',
};

interface Found {
  name: string;
  at: string;
  value: unknown;
}

function extensions(node: unknown, at: string, found: Found[] = []): Found[] {
  if (Array.isArray(node)) {
    node.forEach((item, index) => {
      extensions(item, `${at}/${index}`, found);
    });
  } else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-petstore-')) found.push({ name: key, at, value });
      else extensions(value, `${at}/${key}`, found);
    }
  }
  return found;
}

// The authored YAML: the embedded document leaves the descriptive blocks out (scripts/without-prose.ts).
const found = extensions(parse(readFileSync(join(packageRoot(), 'spec', 'openapi.yaml'), 'utf8')), '#');

function block(name: string): Record<string, unknown> {
  const hit = found.find((extension) => extension.name === name);
  if (!hit) throw new Error(`${name} is not in the document`);
  return hit.value as Record<string, unknown>;
}

describe('x-petstore-* extensions', () => {
  it('finds the extensions it judges', () => {
    expect(found.length).toBeGreaterThanOrEqual(7);
  });

  it.each(found.map((extension) => [`${extension.name} at ${extension.at}`, extension] as const))(
    '%s is read by code or marked descriptive, never both',
    (_label, extension) => {
      const descriptive = (extension.value as { descriptive?: unknown }).descriptive === true;
      expect(descriptive !== extension.name in READ_BY_CODE, extension.name).toBe(true);
    },
  );
});

describe('extensions read by code', () => {
  it.each(Object.entries(READ_BY_CODE))('%s is looked up by name in %s', (name, file) => {
    expect(readFileSync(join(packageRoot(), file), 'utf8')).toContain(`['${name}']`);
  });
});

describe('descriptive extensions say what the mock does', () => {
  const send = async (method: string, path: string, authorization?: string) => {
    const mock = await createMock();
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    const response = await mock.handle(new Request(`http://mock.test/v1${path}`, { method, headers }));
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  const bearer = `Bearer ${DEV_API_KEY}`;

  it('x-petstore-malformed (D9): a malformed orderId gets the stated status and code', async () => {
    const stated = block('x-petstore-malformed').mock as { status: number; code: string };
    const answer = await send('DELETE', '/store/orders/abc', bearer);
    expect({ status: answer.status, code: answer.body?.code }).toEqual(stated);
  });

  it('x-petstore-unknown-routes (D10): an unknown path and an unsupported method as stated', async () => {
    const stated = block('x-petstore-unknown-routes') as Record<
      'unknownPath' | 'unsupportedMethod',
      { status: number; code: string; headers?: string[] }
    >;
    const unknown = await send('GET', '/no/such/path', bearer);
    expect({ status: unknown.status, code: unknown.body?.code }).toEqual({
      status: stated.unknownPath.status,
      code: stated.unknownPath.code,
    });
    const unsupported = await send('POST', '/store/orders', bearer);
    expect({ status: unsupported.status, code: unsupported.body?.code }).toEqual({
      status: stated.unsupportedMethod.status,
      code: stated.unsupportedMethod.code,
    });
    for (const header of stated.unsupportedMethod.headers ?? []) {
      expect(unsupported.headers.get(header), header).toBeTruthy();
    }
  });

  it('x-petstore-auth (D6, D7): the scheme is case-insensitive, every rejected form is 401, auth comes first', async () => {
    const stated = block('x-petstore-auth') as { schemeCaseInsensitive: boolean; rejected: string[] };
    expect(stated.schemeCaseInsensitive).toBe(true);
    expect((await send('GET', '/store/orders', `bEaReR ${DEV_API_KEY}`)).status).toBe(200);
    const forms: Record<string, string | undefined> = {
      'missing header': undefined,
      'wrong key': 'Bearer not-the-key',
      'other scheme': `Basic ${DEV_API_KEY}`,
      'empty token': 'Bearer ',
      'bare key': DEV_API_KEY,
    };
    expect(Object.keys(forms).sort()).toEqual([...stated.rejected].sort());
    for (const [form, authorization] of Object.entries(forms)) {
      expect((await send('GET', '/store/orders', authorization)).status, form).toBe(401);
    }
    // Precedence: a malformed id without a key is refused for the key, before the id is read.
    expect((await send('DELETE', '/store/orders/abc')).status).toBe(401);
  });
});
