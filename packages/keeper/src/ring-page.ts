// The live ring page every keeper serves at GET /: one self-contained HTML
// document (no build step, no CDN, works offline) that polls this keeper's
// /status once a second and draws the ring (backends by state, keeper slices),
// bins per backend, repairs and fills with their progress, and the state
// changes it saw. Elements carry data-* attributes naming what they show, so
// a browser test can read the page the way an operator does.

const POLL_MS = 1000;

const STYLE = `
  :root { color-scheme: light; font: 14px/1.4 system-ui, sans-serif; }
  body { margin: 0; background: #f6f7f9; color: #1d2330; }
  header { display: flex; gap: 1.5em; align-items: baseline; padding: .8em 1.5em; background: #1d2330; color: #fff; }
  header h1 { margin: 0; font-size: 1.3em; }
  #error { display: none; padding: .6em 1.5em; background: #b3261e; color: #fff; }
  #error.shown { display: block; }
  main { display: grid; grid-template-columns: 440px 1fr; gap: 1em 2em; padding: 1em 1.5em; }
  section { background: #fff; border-radius: 8px; padding: .8em 1em; box-shadow: 0 1px 2px #0002; }
  h2 { margin: 0 0 .5em; font-size: 1.05em; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid #e3e6eb; font-variant-numeric: tabular-nums; }
  .state { font-weight: 600; }
  .ready { color: #1b7f3b; } .suspect { color: #a86b00; } .filling { color: #1f5fbf; }
  .dead { color: #b3261e; } .unknown { color: #6b7280; }
  .repair { margin: .4em 0; }
  .repair progress { width: 100%; height: 1em; }
  #legend { list-style: none; padding: 0; margin: .5em 0 0; display: flex; flex-wrap: wrap; gap: .4em 1em; }
  #legend span { display: inline-block; width: .9em; height: .9em; border-radius: 2px; vertical-align: middle; margin-right: .3em; }
  #transitions { margin: 0; padding-left: 1.2em; max-height: 18em; overflow: auto; }
`;

const SCRIPT = `
const POLL_MS = ${POLL_MS};
const STATE_COLOURS = { ready: "#2e9d55", suspect: "#e0a100", filling: "#3b7ddd", dead: "#d93025", unknown: "#9aa0a6" };
const KEEPER_COLOURS = ["#7b61ff", "#00a3a3", "#e8710a", "#c2185b", "#5f6368", "#1a73e8", "#188038", "#9334e6"];
const SVG = "http://www.w3.org/2000/svg";
const previous = new Map();
const transitions = [];

function el(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function point(index, count, radius) {
  const angle = (index / count) * 2 * Math.PI - Math.PI / 2;
  return [radius * Math.cos(angle), radius * Math.sin(angle)];
}

function arc(from, to, radius) {
  const [x1, y1] = point(from, 1, radius);
  const [x2, y2] = point(to, 1, radius);
  const large = to - from > 0.5 ? 1 : 0;
  return "M " + x1 + " " + y1 + " A " + radius + " " + radius + " 0 " + large + " 1 " + x2 + " " + y2;
}

function drawRing(status) {
  const ring = document.getElementById("ring");
  ring.replaceChildren();
  const count = status.backends.length;
  ring.append(svg("circle", { r: 110, fill: "none", stroke: "#d5d9e0", "stroke-width": 2 }));
  const keeperColour = new Map(status.keepers.map((k, i) => [k.address, KEEPER_COLOURS[i % KEEPER_COLOURS.length]]));
  status.backends.forEach((backend, index) => {
    const owner = status.keepers.find((k) => k.slice.includes(backend.address));
    if (owner && count > 0) {
      const half = 0.5 / count;
      ring.append(svg("path", {
        d: arc(index / count - half * 0.9, index / count + half * 0.9, 138),
        fill: "none", stroke: keeperColour.get(owner.address), "stroke-width": 10,
        "data-slice-of": owner.address,
      }));
    }
    const [x, y] = point(index, count, 110);
    const dot = svg("circle", {
      cx: x, cy: y, r: 13, fill: STATE_COLOURS[backend.state] ?? STATE_COLOURS.unknown,
      stroke: "#fff", "stroke-width": 2, "data-backend": backend.address, "data-state": backend.state,
    });
    dot.append(svg("title", {}, backend.address + ": " + backend.state));
    ring.append(dot);
    const [lx, ly] = point(index, count, 82);
    ring.append(svg("text", { x: lx, y: ly + 4, "text-anchor": "middle", "font-size": 10 }, backend.address.split(":").pop()));
  });
  ring.append(svg("text", { x: 0, y: 4, "text-anchor": "middle", "font-size": 13 }, "epoch " + status.epoch));
  const legend = document.getElementById("legend");
  legend.replaceChildren(...status.keepers.map((k) => {
    const item = el("li", { "data-keeper": k.address }, (k.self ? k.address + " (this keeper)" : k.address) + (k.alive ? "" : " — silent"));
    const swatch = el("span");
    swatch.style.background = keeperColour.get(k.address);
    item.prepend(swatch);
    return item;
  }));
}

function drawBackends(status) {
  const body = document.querySelector("#backends tbody");
  body.replaceChildren(...status.backends.map((b) => {
    const row = el("tr", { "data-backend": b.address, "data-state": b.state });
    row.append(el("td", {}, b.address), el("td", { class: "state " + b.state }, b.state), el("td", {}, b.owner ?? "—"),
      el("td", {}, b.bins ?? "—"), el("td", {}, b.keys ?? "—"), el("td", {}, b.lists ?? "—"),
      el("td", {}, b.misses), el("td", {}, b.lastAnswerMsAgo >= 0 && b.bins !== null ? b.lastAnswerMsAgo + " ms ago" : "never"));
    return row;
  }));
}

function repairItem(repair, done) {
  const item = el("div", { class: "repair", "data-backend": repair.backend, "data-kind": repair.kind, "data-state": done ? "done" : repair.state });
  const total = done ? 1 : repair.tasksTotal ?? 0;
  const value = done ? 1 : repair.tasksDone ?? 0;
  const label = done
    ? repair.kind + " of " + repair.backend + ": done in " + repair.ms + " ms, " + repair.entries + " entries copied"
    : repair.kind + " of " + repair.backend + ": " + repair.state + (total > 0 ? ", " + value + " of " + total + " copies, " + (repair.entriesCopied ?? 0) + " entries" : "");
  item.append(el("div", {}, label));
  const bar = el("progress", { max: Math.max(total, 1) });
  if (done || total > 0) bar.setAttribute("value", String(value));
  item.append(bar);
  return item;
}

function drawRepairs(status) {
  const box = document.getElementById("repairs");
  const items = [
    ...status.repairs.map((r) => repairItem(r, false)),
    ...status.completedRepairs.slice().reverse().map((r) => repairItem(r, true)),
  ];
  box.replaceChildren(...(items.length > 0 ? items : [el("p", {}, "none")]));
}

function noteTransitions(status) {
  const now = new Date().toLocaleTimeString();
  for (const b of status.backends) {
    const before = previous.get(b.address);
    if (before !== undefined && before !== b.state) transitions.unshift({ at: now, backend: b.address, from: before, to: b.state });
    previous.set(b.address, b.state);
  }
  transitions.splice(50);
  document.getElementById("transitions").replaceChildren(...transitions.map((t) => {
    const item = el("li", { "data-backend": t.backend, "data-to": t.to }, t.at + " " + t.backend + ": " + t.from + " → ");
    item.append(el("span", { class: "state " + t.to }, t.to));
    return item;
  }));
}

async function poll() {
  try {
    const response = await fetch("/status", { cache: "no-store" });
    if (!response.ok) throw new Error("HTTP " + response.status);
    const status = await response.json();
    document.getElementById("keeper").textContent = "keeper " + status.keeper + " (" + status.address + ")";
    document.getElementById("updated").textContent = "updated " + new Date().toLocaleTimeString();
    drawRing(status);
    drawBackends(status);
    drawRepairs(status);
    noteTransitions(status);
    document.getElementById("error").className = "";
  } catch (error) {
    const banner = document.getElementById("error");
    banner.textContent = "this keeper does not answer (" + error.message + "); retrying every second";
    banner.className = "shown";
  } finally {
    setTimeout(poll, POLL_MS);
  }
}
poll();
`;

export const RING_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>binring ring</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>binring</h1><span id="keeper">connecting…</span><span id="updated"></span></header>
<div id="error" role="alert"></div>
<main>
  <section>
    <h2>The ring</h2>
    <svg id="ring" viewBox="-160 -160 320 320" width="400" height="400" role="img" aria-label="backends on the ring, coloured by state, with keeper slices around them"></svg>
    <ul id="legend"></ul>
  </section>
  <section>
    <h2>Backends</h2>
    <table id="backends">
      <thead><tr><th>backend</th><th>state</th><th>owner</th><th>bins</th><th>keys</th><th>lists</th><th>misses</th><th>last answer</th></tr></thead>
      <tbody></tbody>
    </table>
  </section>
  <section>
    <h2>Repairs and fills</h2>
    <div id="repairs"><p>none</p></div>
  </section>
  <section>
    <h2>State changes seen</h2>
    <ol id="transitions"></ol>
  </section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
