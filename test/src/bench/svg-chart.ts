// Line charts as plain SVG strings: log or linear axes, one polyline per
// series with a legend, and vertical markers (the kill in failover charts).

export interface Series {
  name: string;
  /** [x, y] pairs; a null y breaks the line (no data in that bucket). */
  points: [number, number | null][];
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  xLog?: boolean;
  yLog?: boolean;
  /** Vertical lines at these x values, labelled. */
  markers?: { x: number; label: string }[];
}

const WIDTH = 760;
const HEIGHT = 420;
const MARGIN = { left: 80, right: 230, top: 40, bottom: 55 };
const COLORS = ["#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"];

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function scale(values: number[], log: boolean, from: number, to: number) {
  const transform = (v: number) => (log ? Math.log10(Math.max(v, 1e-9)) : v);
  let lo = Math.min(...values.map(transform));
  let hi = Math.max(...values.map(transform));
  if (log) {
    lo = Math.floor(lo);
    hi = Math.ceil(hi);
  } else {
    lo = Math.min(lo, 0);
  }
  if (hi === lo) hi = lo + 1;
  const map = (v: number) => from + ((transform(v) - lo) / (hi - lo)) * (to - from);
  const ticks = log
    ? Array.from({ length: hi - lo + 1 }, (_, i) => 10 ** (lo + i))
    : Array.from({ length: 6 }, (_, i) => lo + ((hi - lo) * i) / 5);
  return { map, ticks };
}

function label(v: number): string {
  if (Math.abs(v) >= 1000) return `${Number((v / 1000).toPrecision(3))}k`;
  return String(Number(v.toPrecision(3)));
}

export function lineChart(options: ChartOptions): string {
  const xs = options.series.flatMap((s) => s.points.map(([x]) => x));
  const ys = options.series.flatMap((s) => s.points.flatMap(([, y]) => (y === null ? [] : [y])));
  const x = scale(xs.length > 0 ? xs : [0, 1], options.xLog ?? false, MARGIN.left, WIDTH - MARGIN.right);
  const y = scale(ys.length > 0 ? ys : [0, 1], options.yLog ?? false, HEIGHT - MARGIN.bottom, MARGIN.top);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(options.title)}</text>`,
  ];
  for (const tick of y.ticks) {
    const py = y.map(tick).toFixed(1);
    out.push(
      `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${py}" y2="${py}" stroke="#e5e5e5"/>`,
      `<text x="${MARGIN.left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle">${label(tick)}</text>`,
    );
  }
  const xTicks = options.xLog ? [...new Set(xs)].sort((a, b) => a - b) : x.ticks;
  for (const tick of xTicks) {
    const px = x.map(tick).toFixed(1);
    out.push(
      `<line x1="${px}" x2="${px}" y1="${MARGIN.top}" y2="${HEIGHT - MARGIN.bottom}" stroke="#f0f0f0"/>`,
      `<text x="${px}" y="${HEIGHT - MARGIN.bottom + 16}" text-anchor="middle">${label(tick)}</text>`,
    );
  }
  out.push(
    `<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${WIDTH - MARGIN.left - MARGIN.right}" height="${HEIGHT - MARGIN.top - MARGIN.bottom}" fill="none" stroke="#999"/>`,
    `<text x="${(MARGIN.left + WIDTH - MARGIN.right) / 2}" y="${HEIGHT - 12}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`,
    `<text transform="translate(18 ${(MARGIN.top + HEIGHT - MARGIN.bottom) / 2}) rotate(-90)" text-anchor="middle">${escapeXml(options.yLabel)}</text>`,
  );
  for (const marker of options.markers ?? []) {
    const px = x.map(marker.x).toFixed(1);
    out.push(
      `<line x1="${px}" x2="${px}" y1="${MARGIN.top}" y2="${HEIGHT - MARGIN.bottom}" stroke="black" stroke-dasharray="5 4"/>`,
      `<text x="${Number(px) + 4}" y="${MARGIN.top + 14}">${escapeXml(marker.label)}</text>`,
    );
  }
  options.series.forEach((series, i) => {
    const color = COLORS[i % COLORS.length]!;
    const segments: string[][] = [[]];
    for (const [px, py] of series.points) {
      if (py === null) segments.push([]);
      else segments[segments.length - 1]!.push(`${x.map(px).toFixed(1)},${y.map(py).toFixed(1)}`);
    }
    for (const segment of segments.filter((s) => s.length > 0)) {
      out.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${segment.join(" ")}"/>`);
      if (segment.length === 1) {
        const [cx, cy] = segment[0]!.split(",");
        out.push(`<circle cx="${cx}" cy="${cy}" r="3" fill="${color}"/>`);
      }
    }
    const ly = MARGIN.top + 10 + i * 20;
    out.push(
      `<line x1="${WIDTH - MARGIN.right + 12}" x2="${WIDTH - MARGIN.right + 32}" y1="${ly}" y2="${ly}" stroke="${color}" stroke-width="3"/>`,
      `<text x="${WIDTH - MARGIN.right + 38}" y="${ly}" dominant-baseline="middle">${escapeXml(series.name)}</text>`,
    );
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
