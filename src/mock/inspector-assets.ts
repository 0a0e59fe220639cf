/**
 * The state inspector's page, style and script, as text so the web-standard core serves them anywhere. The
 * script builds elements with `textContent`, never `innerHTML`, so no data can become markup, and mounts in
 * a shadow root, so an app's styles and the inspector's never meet (issue 24).
 */

/** The inspector's visible part, which its script mounts into a shadow root: static, it holds no data. */
export const INSPECTOR_MARKUP = `<header>
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

export const INSPECTOR_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pet Store mock inspector</title>
<link rel="stylesheet" href="inspector.css">
<script type="module" src="inspector.js"></script>
</head>
<body data-inspector-page>
</body>
</html>
`;

export const INSPECTOR_CSS = `body { margin: 0; }
:host { all: initial; display: block; color-scheme: light; --ink: #1d2433; --muted: #5b6477; --line: #dde2ea; --bg: #f5f7fa; --accent: #2f5bd3; --bad: #b42318; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
:host(.overlay) { position: fixed; top: 0; right: 0; bottom: 0; width: min(760px, 100vw); overflow: auto; z-index: 2147483647; box-shadow: -4px 0 24px rgba(0, 0, 0, .25); }
* { box-sizing: border-box; }
#key-state { font-size: 12px; opacity: .85; }
header { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: center; justify-content: space-between; padding: 14px 24px; background: #1d2433; color: #fff; }
h1 { margin: 0; font-size: 18px; font-weight: 600; }
h1 span { font-weight: 400; opacity: .7; }
h2 { margin: 0 0 8px; font-size: 15px; }
header label { margin-right: 6px; opacity: .85; }
header input { width: 260px; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; margin: 0 0 16px; }
#toolbar { display: flex; gap: 10px; align-items: center; }
#toolbar select { min-width: 180px; }
.row { display: flex; flex-wrap: wrap; gap: 10px; align-items: end; margin-top: 12px; }
.row label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
.row input[type=number] { width: 90px; }
.check { display: block; font-size: 12px; color: var(--muted); margin-bottom: 6px; }
input, select, button { font: inherit; padding: 4px 8px; border: 1px solid #b9c1cf; border-radius: 5px; background: #fff; color: var(--ink); }
button { cursor: pointer; background: var(--accent); border-color: var(--accent); color: #fff; }
button.secondary, #refresh, #clear-faults { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
button:disabled { opacity: .5; cursor: default; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.empty { color: var(--muted); font-style: italic; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.state-pending { background: #fff4d6; color: #7a5300; }
.state-shipped { background: #dcf5e3; color: #17663a; }
.state-cancelled { background: #eceef2; color: #5b6477; }
.status-ok { color: #17663a; }
.status-bad { color: var(--bad); font-weight: 600; }
#status { min-height: 1.4em; margin: 0 0 12px; }
#status.error { color: var(--bad); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12.5px; }
`;

/**
 * The inspector's script, a module. `OPERATIONS` (the document's operationIds), `API_BASE` (the contract's
 * base path) and `MARKUP` are prepended by inspector.ts as JSON values; everything else is read from the
 * endpoints.
 */
export const INSPECTOR_SCRIPT = `
const KEY_ITEM = 'petstore-inspector-key';
// Where the control endpoints are: beside this script, at <root>/__mock/, whichever page imported it.
const BASE = new URL('.', import.meta.url);

// int64 ids above 2^53 keep their digits: the reviver reads the source text where the browser gives it.
function parseExact(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context && context.source ? context.source : value,
  );
}

/**
 * Shows the inspector in \`target\` (an element of the page), or in a panel over the page with a Close
 * button. \`key\` is the handlers' key when the mock lives in the page; without it the inspector asks for
 * one before its first request and keeps it in this tab's sessionStorage. Returns the element it added.
 */
export function mount(target, key) {
  const host = document.createElement('div');
  host.dataset.petstoreInspector = '';
  if (!target) host.className = 'overlay';
  const root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('link');
  style.rel = 'stylesheet';
  style.href = new URL('inspector.css', BASE).href;
  root.append(style, ...new DOMParser().parseFromString(MARKUP, 'text/html').body.childNodes);
  (target || document.body).append(host);

  const $ = (id) => root.getElementById(id);
  let session = 'default';
  const storedKey = () => key || sessionStorage.getItem(KEY_ITEM) || '';

  function say(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }

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
    const response = await fetch(new URL(path, BASE), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
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

  function cell(row, text, className) {
    const td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : String(text);
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  function fill(tableId, rows, empty, columns) {
    const body = $(tableId).tBodies[0];
    body.replaceChildren();
    if (rows.length === 0) {
      const tr = body.insertRow();
      cell(tr, empty, 'empty').colSpan = columns;
    }
    return body;
  }

  function badge(parent, text, className) {
    const span = document.createElement('span');
    span.className = 'badge ' + className;
    span.textContent = text;
    parent.appendChild(span);
  }

  function showOrders(orders) {
    const body = fill('orders', orders, 'No orders.', 6);
    for (const order of orders) {
      const tr = body.insertRow();
      tr.dataset.id = String(order.id);
      cell(tr, order.id);
      cell(tr, order.petId);
      cell(tr, order.quantity);
      cell(tr, order.shipDate);
      badge(cell(tr, ''), order.state, 'state-' + order.state);
      const actions = cell(tr, '');
      if (order.state === 'pending') {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'secondary cancel';
        button.textContent = 'Cancel';
        button.addEventListener('click', () => act(async () => {
          const answer = await call('DELETE', '..' + API_BASE + '/store/orders/' + encodeURIComponent(String(order.id)));
          return answer.status === 204 ? 'Order ' + order.id + ' cancelled.' : 'Cancel answered ' + answer.status + '.';
        }));
        actions.appendChild(button);
      }
    }
  }

  function showFaults(faults) {
    const body = fill('faults', faults, 'No faults planned.', 5);
    for (const fault of faults) {
      const tr = body.insertRow();
      cell(tr, fault.id);
      cell(tr, fault.operation === null ? 'every operation' : fault.operation);
      cell(tr, fault.drop ? 'drop the connection' : fault.status !== undefined ? 'answer ' + fault.status : 'only wait');
      cell(tr, fault.delayMs + ' ms');
      cell(tr, fault.remaining);
    }
  }

  function showRequests(requests) {
    const all = $('show-control').checked;
    const shown = requests.filter((entry) => all || !entry.path.includes('/__mock/')).reverse();
    const body = fill('requests', shown, 'No requests yet.', 5);
    for (const entry of shown) {
      const tr = body.insertRow();
      cell(tr, entry.time.slice(11, 23));
      const request = cell(tr, '');
      const code = document.createElement('code');
      code.textContent = entry.method + ' ' + entry.path;
      request.appendChild(code);
      cell(tr, entry.status === 0 ? 'dropped' : entry.status, entry.status >= 400 || entry.status === 0 ? 'status-bad' : 'status-ok');
      cell(tr, entry.code);
      cell(tr, entry.durationMs);
    }
  }

  async function refresh() {
    const names = (await call('GET', 'sessions')).body.sessions;
    if (!names.includes(session)) names.push(session);
    $('session').replaceChildren(...names.map((name) => new Option(name, name, false, name === session)));
    const [state, faults, requests] = await Promise.all([call('GET', 'state'), call('GET', 'faults'), call('GET', 'requests')]);
    // Where the orders came from: a fixture file, and the line that petstore proxy --record writes (issue 24).
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

  if (key) $('key-form').hidden = true;
  $('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(KEY_ITEM, $('key').value);
    $('key').value = '';
    showKey();
    act(() => 'Key saved for this tab.');
  });
  if (!target) $('close').hidden = false;
  $('close').addEventListener('click', () => host.remove());
  $('session').addEventListener('change', () => {
    session = $('session').value;
    act();
  });
  $('refresh').addEventListener('click', () => act());
  $('show-control').addEventListener('change', () => act());
  $('reset').addEventListener('click', () => act(async () => {
    await call('POST', 'reset');
    return 'Session ' + session + ' is back to the fixtures.';
  }));
  $('clear-faults').addEventListener('click', () => act(async () => {
    await call('DELETE', 'faults');
    return 'Faults cleared.';
  }));
  $('fault-operation').replaceChildren(new Option('every operation', ''), ...OPERATIONS.map((id) => new Option(id, id)));
  $('fault-form').addEventListener('submit', (event) => {
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
