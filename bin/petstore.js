#!/usr/bin/env node
// The `petstore` command. The TypeScript sources are compiled to dist/ (shipped in the package; in a clone
// of the repository `npm run build`, `npm start` and `npm test` make it); this file only finds that output
// and hands over.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'petstore: the compiled command is missing (dist/). In a clone of the repository, run `npm run build` first.\n',
  );
  process.exit(2);
}
try {
  const { main } = await import(entry.href);
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // A bug, not a user error: one line, and the stack only when asked for.
  const detail = process.env.PETSTORE_DEBUG ? error?.stack : error?.message;
  process.stderr.write(`petstore: internal error: ${detail ?? error}\nSet PETSTORE_DEBUG=1 for details.\n`);
  process.exitCode = 1;
}
