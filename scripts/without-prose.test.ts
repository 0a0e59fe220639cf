import { describe, expect, it } from 'vitest';
import { withoutProse } from './without-prose.js';

describe('withoutProse', () => {
  const cases = [
    {
      name: 'drops the descriptions, summaries and tags of the document, operations, parameters and schemas',
      given: {
        info: { title: 'T', version: '1', summary: 'S', description: 'long' },
        tags: [{ name: 'orders' }],
        paths: {
          '/a': {
            get: {
              summary: 'S',
              tags: ['orders'],
              description: 'long',
              parameters: [{ name: 'x', description: 'd' }],
            },
          },
        },
        components: { schemas: { Order: { type: 'object', description: 'd' } } },
      },
      want: {
        info: { title: 'T', version: '1' },
        paths: { '/a': { get: { parameters: [{ name: 'x' }] } } },
        components: { schemas: { Order: { type: 'object' } } },
      },
    },
    {
      name: "keeps what code reads (a header's description, media examples), and a response's description empty",
      given: {
        responses: {
          '409': {
            description: 'shipped',
            headers: { Sunset: { description: 'when', example: 'x' } },
            content: {
              'application/json': { examples: { shipped: { summary: 's', value: { code: 'c' } } } },
            },
          },
        },
      },
      want: {
        responses: {
          '409': {
            description: '',
            headers: { Sunset: { description: 'when', example: 'x' } },
            content: {
              'application/json': { examples: { shipped: { value: { code: 'c' } } } },
            },
          },
        },
      },
    },
    {
      name: "drops a schema's examples and externalDocs, but keeps fields named description, summary or tags",
      given: {
        type: 'object',
        externalDocs: { url: 'u' },
        properties: { description: { type: 'string', examples: ['a'] }, summary: {}, tags: {} },
      },
      want: { type: 'object', properties: { description: { type: 'string' }, summary: {}, tags: {} } },
    },
    {
      name: 'drops an x- extension marked descriptive: no code reads it',
      given: {
        parameters: [{ name: 'orderId', 'x-petstore-malformed': { descriptive: true, decision: 'D9' } }],
      },
      want: { parameters: [{ name: 'orderId' }] },
    },
    {
      name: "keeps an x- extension's settings, drops its description",
      given: { 'x-petstore-faults': { description: 'd', code: 'simulated_fault' } },
      want: { 'x-petstore-faults': { code: 'simulated_fault' } },
    },
  ];
  it.each(cases)('$name', ({ given, want }) => {
    const before = structuredClone(given);
    expect(withoutProse(given)).toEqual(want);
    expect(given).toEqual(before);
  });
});
