/** The shared behaviour table over a real socket (node:http, raw request targets). */
import { createMock } from './index.js';
import { describeBehaviour } from './test-support/behaviour-table.js';
import { send } from './test-support/http.js';

describeBehaviour('over a socket', async () => {
  const mock = await createMock();
  const { url } = await mock.listen({ port: 0 });
  return {
    async send({ method, path, headers, body }) {
      const answer = await send(url, {
        method,
        path,
        ...(headers ? { headers } : {}),
        ...(body === undefined ? {} : { body }),
      });
      return {
        status: answer.status,
        header: (name) => {
          const value = answer.headers[name];
          return Array.isArray(value) ? value.join(', ') : value;
        },
        text: answer.text,
      };
    },
    stop: () => mock.close(),
  };
});
