// The SVG timeline of a run: one panel per operation kind, latency (log scale) over time as
// points, failed and unknown operations marked, faults as labelled vertical lines across all
// panels (network faults dotted, a colour per kind). Built as plain strings: one path per
// series keeps a 50k-operation file small.
import type { Fault, History, OpKind } from "./history.js";

const KINDS: OpKind[] = ["set", "get", "listAppend", "listRemove", "listGet", "clock"];
const WIDTH = 1200;
const LEFT = 60;
const RIGHT = 20;
const TOP = 70;
const PANEL_HEIGHT = 90;
const PANEL_GAP = 14;
const BOTTOM = 60;
const OK_COLOUR = "#3b6fb6";
const FAIL_COLOUR = "#d62728";
const UNKNOWN_COLOUR = "#ff8c00";

const FAULT_COLOURS: [RegExp, string][] = [
  [/^(kill|wipe)/, "#d62728"],
  [/^(restart|resume|reconnect)/, "#2ca02c"],
  [/^pause/, "#9467bd"],
];

/** Network faults (chaos's network-schedule.ts), each kind its own colour, drawn dotted. */
const NETWORK_FAULT_COLOURS: Record<string, string> = {
  partition: "#e377c2",
  "cut-clients": "#17becf",
  "cut-one-way": "#8c564b",
  "slow-link": "#bcbd22",
  "partition-keepers": "#1f3b73",
};

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const fixed = (n: number) => n.toFixed(1);

function faultColour(fault: Fault): string {
  return (
    NETWORK_FAULT_COLOURS[fault.action] ??
    FAULT_COLOURS.find(([pattern]) => pattern.test(fault.action))?.[1] ??
    "#555"
  );
}

/** Network faults and their reconnects are drawn dotted, process faults dashed. */
function isNetworkFault(fault: Fault): boolean {
  return fault.action in NETWORK_FAULT_COLOURS || fault.action === "reconnect";
}

/** A round step near `span / targetTicks` from 1, 2, 5 × 10^n. */
function niceStep(span: number, targetTicks: number): number {
  const raw = span / targetTicks;
  const power = 10 ** Math.floor(Math.log10(raw));
  const multiple = [1, 2, 5, 10].find((m) => m * power >= raw) ?? 10;
  return multiple * power;
}

export function renderTimelineSvg(history: History, title: string): string {
  const ops = history.ops;
  let endMs = 1;
  let maxLatency = 1;
  for (const op of ops) {
    endMs = Math.max(endMs, op.complete);
    maxLatency = Math.max(maxLatency, op.complete - op.invoke);
  }
  for (const fault of history.faults) endMs = Math.max(endMs, fault.time);
  const panels = KINDS.filter((kind) => ops.some((op) => op.op === kind));
  const height = TOP + Math.max(1, panels.length) * (PANEL_HEIGHT + PANEL_GAP) + BOTTOM;
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (ms: number) => LEFT + (ms / endMs) * plotWidth;
  const logMin = -1; // 0.1 ms
  const logMax = Math.max(1, Math.ceil(Math.log10(maxLatency)));
  const yIn = (panel: number, latency: number) => {
    const top = TOP + panel * (PANEL_HEIGHT + PANEL_GAP);
    const log = Math.min(logMax, Math.max(logMin, Math.log10(Math.max(latency, 0.1))));
    return top + PANEL_HEIGHT - ((log - logMin) / (logMax - logMin)) * PANEL_HEIGHT;
  };

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${height}" fill="white"/>`,
    `<text x="${LEFT}" y="20" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${LEFT}" y="38" fill="#444">latency per operation (ms, log scale) over time (s) — ` +
      `<tspan fill="${OK_COLOUR}">● ok</tspan>  <tspan fill="${FAIL_COLOUR}">✕ failed</tspan>  ` +
      `<tspan fill="${UNKNOWN_COLOUR}">● unknown (time until the client gave up)</tspan>; vertical lines: faults</text>`,
  ];
  const networkKinds = Object.keys(NETWORK_FAULT_COLOURS).filter((action) =>
    history.faults.some((fault) => fault.action === action),
  );
  if (networkKinds.length > 0) {
    out.push(
      `<text x="${WIDTH - RIGHT}" y="20" text-anchor="end" fill="#444">network faults (dotted): ${networkKinds
        .map((action) => `<tspan fill="${NETWORK_FAULT_COLOURS[action]}">┆ ${action}</tspan>`)
        .join(" ")}</text>`,
    );
  }

  panels.forEach((kind, panel) => {
    const top = TOP + panel * (PANEL_HEIGHT + PANEL_GAP);
    out.push(
      `<rect x="${LEFT}" y="${top}" width="${plotWidth}" height="${PANEL_HEIGHT}" fill="#fafafa" stroke="#ccc"/>`,
    );
    for (let power = logMin; power <= logMax; power++) {
      const y = fixed(yIn(panel, 10 ** power));
      out.push(
        `<line x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}" stroke="#e4e4e4"/>`,
        `<text x="${LEFT - 4}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#777" font-size="9">${10 ** power >= 1 ? 10 ** power : "0.1"}</text>`,
      );
    }
    const series = { ok: "", fail: "", unknown: "" };
    for (const op of ops) {
      if (op.op !== kind) continue;
      const px = fixed(x(op.invoke));
      const py = fixed(yIn(panel, op.complete - op.invoke));
      if (op.status === "fail") series.fail += `M${px} ${py}m-3 -3l6 6m0 -6l-6 6`;
      else series[op.status] += `M${px} ${py}h0`;
    }
    if (series.ok) {
      out.push(
        `<path d="${series.ok}" stroke="${OK_COLOUR}" stroke-opacity="0.55" stroke-width="2.5" stroke-linecap="round"/>`,
      );
    }
    if (series.unknown) {
      out.push(
        `<path d="${series.unknown}" stroke="${UNKNOWN_COLOUR}" stroke-width="5" stroke-linecap="round"/>`,
      );
    }
    if (series.fail) {
      out.push(`<path d="${series.fail}" stroke="${FAIL_COLOUR}" stroke-width="1.5" fill="none"/>`);
    }
    // Drawn last, with a white halo, so that points never hide it.
    out.push(
      `<text x="${LEFT + 6}" y="${top + 14}" font-size="12" font-weight="bold" paint-order="stroke" stroke="white" stroke-width="4">${kind}</text>`,
    );
  });

  const plotBottom = TOP + Math.max(1, panels.length) * (PANEL_HEIGHT + PANEL_GAP) - PANEL_GAP;
  const step = niceStep(endMs / 1000, 12);
  for (let second = 0; second * 1000 <= endMs; second += step) {
    const px = fixed(x(second * 1000));
    out.push(
      `<line x1="${px}" x2="${px}" y1="${plotBottom}" y2="${plotBottom + 5}" stroke="#333"/>`,
      `<text x="${px}" y="${plotBottom + 17}" text-anchor="middle">${Number(second.toFixed(3))}</text>`,
    );
  }
  out.push(
    `<text x="${LEFT + plotWidth / 2}" y="${plotBottom + 34}" text-anchor="middle">time since start (s)</text>`,
  );

  // Fault labels take turns on three rows so that neighbours do not overlap.
  history.faults.forEach((fault, index) => {
    const px = fixed(x(fault.time));
    const colour = faultColour(fault);
    const dotted = isNetworkFault(fault);
    const labelY = 46 + (index % 3) * 9;
    const label = `${fault.action}${fault.target ? ` ${fault.target}` : ""}`;
    // Labels near an edge grow inwards so that they stay inside the picture.
    const share = fault.time / endMs;
    const anchor = share < 0.08 ? "start" : share > 0.92 ? "end" : "middle";
    out.push(
      `<line x1="${px}" x2="${px}" y1="${labelY + 2}" y2="${plotBottom}" stroke="${colour}" stroke-width="${dotted ? 1.5 : 1}" stroke-dasharray="${dotted ? "1 2" : "4 3"}" opacity="0.8"><title>${escapeXml(`${(fault.time / 1000).toFixed(2)} s ${label}${fault.detail ? `: ${fault.detail}` : ""}`)}</title></line>`,
      `<text x="${px}" y="${labelY}" fill="${colour}" font-size="9" text-anchor="${anchor}">${escapeXml(label)}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
