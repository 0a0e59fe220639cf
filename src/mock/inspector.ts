/** The state inspector at `GET /__mock/`, a client of the control endpoints; its assets hold no data or key. */
import type { Contract } from '../contract/index.js';
import type { CoreResponse } from './responses.js';

/** What serves the inspector: its page, script or style for a `GET` of its path, else `undefined`. */
export type Inspector = (contract: Contract, method: string, pathname: string) => CoreResponse | undefined;

export const INSPECTOR_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** What the script mounts into a shadow root (issue 24). */
const MARKUP = `<header>
  <h1>Pet Store mock <span>inspector</span></h1>
  <span id="key-state" role="status"></span>
  <form id="key-form" autocomplete="off">
    <label for="key">API key</label>
    <input id="key" type="password" autocomplete="off" placeholder="the mock's API key" spellcheck="false">
    <button type="submit">Use key</button>
  </form>
  <button id="close" type="button" class="secondary" hidden>Close</button>
</header>
<main>
  <p id="status" role="status"></p>
  <section id="toolbar">
    <label for="session">Session</label>
    <select id="session"></select>
    <button id="refresh" type="button">Refresh</button>
    <button id="reset" type="button" class="danger">Reset session</button>
  </section>
  <section>
    <h2>Orders</h2>
    <p id="source"></p>
    <table id="orders"><thead><tr><th>id</th><th>pet</th><th>qty</th><th>ship date</th><th>state</th><th></th></tr></thead><tbody></tbody></table>
  </section>
  <section>
    <h2>Planned faults</h2>
    <table id="faults"><thead><tr><th>#</th><th>operation</th><th>does</th><th>delay</th><th>remaining</th></tr></thead><tbody></tbody></table>
    <form id="fault-form" class="row">
      <label>Operation <select id="fault-operation"></select></label>
      <label>Does <select id="fault-kind"><option value="status">answer a status</option><option value="drop">drop the connection</option><option value="delay">only wait</option></select></label>
      <label>Status <input id="fault-status" type="number" min="400" max="599" value="503"></label>
      <label>Delay ms <input id="fault-delay" type="number" min="0" max="30000" value="0"></label>
      <label>Times <input id="fault-times" type="number" min="1" value="1"></label>
      <button type="submit">Plan fault</button>
      <button id="clear-faults" type="button">Clear faults</button>
    </form>
  </section>
  <section>
    <h2>Request timeline</h2>
    <label class="check"><input id="show-control" type="checkbox"> show control requests (/__mock/)</label>
    <table id="requests"><thead><tr><th>time</th><th>request</th><th>status</th><th>Error code</th><th>ms</th></tr></thead><tbody></tbody></table>
  </section>
</main>`;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store mock inspector</title>
<link rel="stylesheet" href="inspector.css">
<script type="module" src="inspector.js"></script>
</head>
<body data-inspector-page></body>
</html>
`;

const CSS = `body { margin: 0; }
:host { all: initial; display: block; color-scheme: light; --ink: #1d2433; --muted: #5b6477; --line: #dde2ea; --accent: #2f5bd3; --bad: #b42318; font: 14px/1.45 system-ui, sans-serif; color: var(--ink); background: #f5f7fa; }
:host(.overlay) { position: fixed; top: 0; right: 0; bottom: 0; width: min(760px, 100vw); overflow: auto; z-index: 2147483647; box-shadow: -4px 0 24px #0004; }
* { box-sizing: border-box; }
header { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; justify-content: space-between; padding: 14px 24px; background: var(--ink); color: #fff; }
h1 { margin: 0; font-size: 18px; }
h1 span, header label, #key-state { opacity: .8; font-weight: 400; }
h2 { margin: 0 0 8px; font-size: 15px; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 0 0 16px; }
#toolbar, .row { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; }
.row { margin-top: 12px; }
.row label { display: flex; flex-direction: column; gap: 2px; }
.row input[type=number] { width: 90px; }
.row label, .check, th { font-size: 12px; color: var(--muted); }
input, select, button { font: inherit; padding: 4px 8px; border: 1px solid #b9c1cf; border-radius: 5px; background: #fff; color: var(--ink); }
button { cursor: pointer; background: var(--accent); border-color: var(--accent); color: #fff; }
.secondary, #refresh, #clear-faults { background: #fff; color: var(--accent); }
.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); }
td.empty { color: var(--muted); font-style: italic; }
.badge { padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.state-pending { background: #fff4d6; color: #7a5300; }
.state-shipped { background: #dcf5e3; color: #17663a; }
.state-cancelled { background: #eceef2; color: var(--muted); }
.status-ok { color: #17663a; }
.status-bad, #status.error { color: var(--bad); font-weight: 600; }
#status { min-height: 1.4em; margin: 0 0 12px; }
`;

/** `mount(target, key)`; it writes `textContent`, never `innerHTML`, so no data can become markup. */
const SCRIPT = `
const KEY_ITEM = 'petstore-inspector-key';
// The control endpoints are beside this script, whichever page imported it.
const BASE = new URL('.', import.meta.url);

// int64 ids above 2^53 keep their digits: the reviver reads the source text where the browser gives it.
const parseExact = (text) =>
  JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context && context.source ? context.source : value,
  );

const element = (tag, text, className) =>
  Object.assign(document.createElement(tag), { textContent: text ?? '', className: className || '' });

export function mount(target, key) {
  const host = element('div', '', target ? '' : 'overlay');
  host.dataset.petstoreInspector = '';
  const root = host.attachShadow({ mode: 'open' });
  const style = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: new URL('inspector.css', BASE).href });
  root.append(style, ...new DOMParser().parseFromString(MARKUP, 'text/html').body.childNodes);
  (target || document.body).append(host);

  const $ = (id) => root.getElementById(id);
  const on = (id, event, listener) => $(id).addEventListener(event, listener);
  let session = 'default';
  const storedKey = () => key || sessionStorage.getItem(KEY_ITEM) || '';

  const say = (text, isError) => Object.assign($('status'), { textContent: text, className: isError ? 'error' : '' });

  // Which key is in use, never the key itself.
  function showKey() {
    const set = storedKey() !== '';
    $('key-state').textContent = key ? "Key: the handlers' key" : set ? 'Key: set for this tab' : 'Key: none yet';
    $('key').placeholder = set ? 'key set; type another to replace it' : "the mock's API key";
  }

  async function call(method, path, body) {
    const headers = { authorization: 'Bearer ' + storedKey() };
    if (session !== 'default') headers['x-mock-session'] = session;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(new URL(path, BASE), { method, headers, body: body && JSON.stringify(body) });
    const text = await response.text();
    const parsed = text === '' ? undefined : parseExact(text);
    if (response.status === 401) {
      sessionStorage.removeItem(KEY_ITEM);
      showKey();
      throw new Error('The mock refused the key (401): enter its API key above.');
    }
    if (!response.ok && response.status !== 409 && response.status !== 404) {
      throw new Error((parsed && parsed.message) || 'HTTP ' + response.status);
    }
    return { status: response.status, body: parsed };
  }

  // One row per item, its cells from \`cells\` (text, or an element); a note when there are none.
  function fill(id, items, empty, cells) {
    const body = $(id).tBodies[0];
    body.replaceChildren();
    if (items.length === 0) {
      body.insertRow().appendChild(element('td', empty, 'empty')).colSpan = $(id).tHead.rows[0].cells.length;
    }
    for (const item of items) {
      const row = body.insertRow();
      for (const [value, className] of cells(item, row)) {
        row.appendChild(element('td', '', className)).append(value ?? '');
      }
    }
  }

  function cancelButton(order) {
    if (order.state !== 'pending') return '';
    const cancel = () => act(async () => {
      const answer = await call('DELETE', '..' + API_BASE + '/store/orders/' + encodeURIComponent(String(order.id)));
      return answer.status === 204 ? 'Order ' + order.id + ' cancelled.' : 'Cancel answered ' + answer.status + '.';
    });
    return Object.assign(element('button', 'Cancel', 'secondary cancel'), { type: 'button', onclick: cancel });
  }

  const showOrders = (orders) => fill('orders', orders, 'No orders.', (order, row) => {
    row.dataset.id = String(order.id);
    const badge = element('span', order.state, 'badge state-' + order.state);
    return [[order.id], [order.petId], [order.quantity], [order.shipDate], [badge], [cancelButton(order)]];
  });

  const showFaults = (faults) => fill('faults', faults, 'No faults planned.', (fault) => [
    [fault.id],
    [fault.operation === null ? 'every operation' : fault.operation],
    [fault.drop ? 'drop the connection' : fault.status !== undefined ? 'answer ' + fault.status : 'only wait'],
    [fault.delayMs + ' ms'],
    [fault.remaining],
  ]);

  function showRequests(requests) {
    const all = $('show-control').checked;
    const shown = requests.filter((entry) => all || !entry.path.includes('/__mock/')).reverse();
    fill('requests', shown, 'No requests yet.', (entry) => [
      [entry.time.slice(11, 23)],
      [element('code', entry.method + ' ' + entry.path)],
      entry.status === 0 ? ['dropped', 'status-bad'] : [entry.status, entry.status >= 400 ? 'status-bad' : 'status-ok'],
      [entry.code],
      [entry.durationMs],
    ]);
  }

  async function refresh() {
    const names = (await call('GET', 'sessions')).body.sessions;
    if (!names.includes(session)) names.push(session);
    $('session').replaceChildren(...names.map((name) => new Option(name, name, false, name === session)));
    const [state, faults, requests] = await Promise.all([call('GET', 'state'), call('GET', 'faults'), call('GET', 'requests')]);
    // Where the orders came from: a fixture file, or the line petstore proxy --record writes (issue 24).
    const about = state.body.fixturesDescription;
    $('source').textContent = 'Fixtures: ' + state.body.fixtures + (about ? ' (' + about + ')' : '');
    showOrders(state.body.orders);
    showFaults(faults.body.faults);
    showRequests(requests.body.requests);
    host.dataset.loaded = String(Date.now());
  }

  async function act(action) {
    // No request before there is a key to send: the first view asks for one instead of showing a 401.
    if (storedKey() === '') return say("Enter the mock's API key above to see its state.", false);
    try {
      const message = action ? await action() : '';
      await refresh();
      say(message || '', false);
    } catch (error) {
      say(error instanceof Error ? error.message : String(error), true);
    }
  }

  $('key-form').hidden = Boolean(key);
  $('close').hidden = Boolean(target);
  on('key-form', 'submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY_ITEM, $('key').value);
    $('key').value = '';
    showKey();
    act(() => 'Key saved for this tab.');
  });
  on('close', 'click', () => host.remove());
  on('session', 'change', () => {
    session = $('session').value;
    act();
  });
  on('refresh', 'click', () => act());
  on('show-control', 'change', () => act());
  on('reset', 'click', () => act(() => call('POST', 'reset').then(() => 'Session ' + session + ' is back to the fixtures.')));
  on('clear-faults', 'click', () => act(() => call('DELETE', 'faults').then(() => 'Faults cleared.')));
  $('fault-operation').replaceChildren(new Option('every operation', ''), ...OPERATIONS.map((id) => new Option(id, id)));
  on('fault-form', 'submit', (event) => {
    event.preventDefault();
    act(async () => {
      const plan = { times: Number($('fault-times').value) || 1 };
      const operation = $('fault-operation').value;
      if (operation) plan.operation = operation;
      const kind = $('fault-kind').value;
      if (kind === 'status') plan.status = Number($('fault-status').value);
      if (kind === 'drop') plan.drop = true;
      const delay = Number($('fault-delay').value);
      if (delay > 0 || kind === 'delay') plan.delayMs = delay;
      const answer = await call('POST', 'faults', plan);
      return 'Fault ' + answer.body.fault.id + ' planned.';
    });
  });
  showKey();
  act();
  return host;
}

// The inspector's own page (GET /__mock/) shows it whole; a page that imports the script calls mount().
if (document.body.hasAttribute('data-inspector-page')) mount(document.body);
`;

const ASSETS: Readonly<Record<string, { type: string; body: (contract: Contract) => string }>> = {
  '/__mock/': { type: 'text/html; charset=utf-8', body: () => HTML },
  '/__mock/inspector.js': {
    type: 'text/javascript; charset=utf-8',
    body: (contract) =>
      `const OPERATIONS = ${JSON.stringify(contract.operations.map((op) => op.operationId))};\nconst API_BASE = ${JSON.stringify(contract.basePath)};\nconst MARKUP = ${JSON.stringify(MARKUP)};\n${SCRIPT}`,
  },
  '/__mock/inspector.css': { type: 'text/css; charset=utf-8', body: () => CSS },
};

/** The state inspector, as the engine's `inspector` option. */
export const inspector: Inspector = (contract, method, pathname) => {
  const asset = method === 'GET' ? ASSETS[pathname] : undefined;
  if (!asset) return undefined;
  return {
    status: 200,
    headers: {
      'content-type': asset.type,
      'content-security-policy': INSPECTOR_CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
    body: asset.body(contract),
    session: undefined,
  };
};
