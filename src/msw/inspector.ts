/**
 * The state inspector for MSW handlers, as its own entry so that a page which does not ask for it does not
 * load its page, script and style (about 12 kB minified; the MSW entry's size budget leaves it out).
 *
 * @example
 * import { createHandlers } from 'petstore-contract-toolkit/msw';
 * import { inspector } from 'petstore-contract-toolkit/msw/inspector';
 * const mock = createHandlers({ fixtures, inspector }); // then `import('/__mock/inspector.js')` in the page
 */
export { type Inspector, inspector } from '../mock/inspector.js';
