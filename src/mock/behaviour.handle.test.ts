/** The shared behaviour table in-process, through `handle(Request)`. */
import { createMock } from './index.js';
import { describeBehaviour } from './test-support/behaviour-table.js';

describeBehaviour('through handle(Request)', async () => {
  const mock = await createMock();
  return {
    async send({ method, path, headers, body }) {
      const response = await mock.handle(new Request(`http://mock.test${path}`, { method, headers, body }));
      return {
        status: response.status,
        header: (name) => response.headers.get(name) ?? undefined,
        text: await response.text(),
      };
    },
    stop: () => mock.close(),
  };
});
