// `npm run bench -- tls`: what mutual TLS costs. Two binring clusters, one
// plaintext and one with the certificates `binring certs` writes (every
// backend and keeper serves TLS and checks the client's certificate), both up
// at once and measured in turns: set and get at c=1 and c=64. The TLS cluster
// must refuse a plaintext client first, so the cells measure what they say.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keyOf, type Measurement, preload } from "@binring/load";
import { runCli } from "../support/binring-process.js";
import { type Binring, startBinring } from "./contenders.js";
import { type Cell, cellName, everyCellRow, measureInTurns, type Turn, warmUpRule } from "./in-turns.js";
import { LoadProcesses } from "./load-processes.js";
import { fmt, table } from "./measure.js";
import type { BenchResult } from "./result.js";
import { type BenchSettings, progress } from "./settings.js";
import { connect } from "./systems.js";

const BACKENDS = 6;
const MODES = ["plaintext", "mutual TLS"] as const;

/** The cells, in order: a workload's first cell follows its warm-up. */
const CELLS: Cell[] = [
  { workload: "set", concurrency: 1 },
  { workload: "set", concurrency: 64 },
  { workload: "get", concurrency: 1 },
  { workload: "get", concurrency: 64 },
];

export async function tlsBench(settings: BenchSettings): Promise<BenchResult> {
  const certs = mkdtempSync(join(tmpdir(), "binring-bench-certs-"));
  const clusters: Binring[] = [];
  const turns: Turn[] = [];
  try {
    const made = await runCli(["certs", "--dir", certs]);
    if (made.code !== 0) throw new Error(`binring certs --dir ${certs} failed: ${made.stderr}`);
    for (const mode of MODES) {
      progress(`tls: starting binring, ${mode}`);
      const binring = await startBinring(BACKENDS, settings.keepers, {
        tlsDir: mode === "mutual TLS" ? certs : undefined,
      });
      clusters.push(binring);
      if (mode === "mutual TLS") await expectRefusesPlaintext(binring);
      const client = connect(binring.spec);
      await preload(client);
      await client.close();
      turns.push({ name: mode, load: await LoadProcesses.start(binring.spec, 1) });
    }
    return report(await measureInTurns("tls", turns, CELLS, settings), settings);
  } finally {
    await Promise.all(turns.map(({ load }) => load.stop()));
    await Promise.all(clusters.map((binring) => binring.cluster.stop()));
    rmSync(certs, { recursive: true, force: true });
  }
}

/** Fails unless the cluster refuses a client without a certificate: otherwise its cells would not measure TLS. */
async function expectRefusesPlaintext(binring: Binring): Promise<void> {
  const plain = connect({ ...binring.spec, tls: undefined, callTimeoutMs: 1000 });
  try {
    const answered = await plain.get(keyOf(0)).then(
      () => true,
      () => false,
    );
    if (answered) throw new Error(`${binring.spec.name} answered a client without TLS`);
  } finally {
    await plain.close();
  }
}

/** Percent of plaintext's throughput TLS gives up; negative when TLS measured faster (noise). */
function costPercent(plain: Measurement, tls: Measurement): number {
  return Math.round((1 - tls.opsPerSecond / plain.opsPerSecond) * 100);
}

function headline(plain: Measurement, tls: Measurement): string {
  const percent = costPercent(plain, tls);
  return percent >= 0
    ? `**Mutual TLS costs ${percent}% of set throughput at c=64** in this run`
    : `**Mutual TLS measured ${-percent}% faster than plaintext on sets at c=64** in this run: noise larger than its cost`;
}

function report(results: Map<string, Map<string, Measurement>>, settings: BenchSettings): BenchResult {
  const summaryRows: (string | number)[][] = [];
  const detailRows: (string | number)[][] = [];
  for (const cell of CELLS) {
    const byMode = results.get(cellName(cell))!;
    const plain = byMode.get("plaintext")!;
    const tls = byMode.get("mutual TLS")!;
    summaryRows.push([
      cell.workload,
      cell.concurrency,
      fmt.ops(plain.opsPerSecond),
      fmt.ops(tls.opsPerSecond),
      `${costPercent(plain, tls)}%`,
      fmt.times(tls.p50Ms, plain.p50Ms),
    ]);
    for (const mode of MODES) {
      detailRows.push(everyCellRow(cell, mode, byMode.get(mode)!));
    }
  }
  const sets = results.get(cellName({ workload: "set", concurrency: 64 }))!;
  return {
    markdown: `## TLS: binring with mutual TLS vs plaintext

${headline(sets.get("plaintext")!, sets.get("mutual TLS")!)} (plaintext ${fmt.ops(sets.get("plaintext")!.opsPerSecond)}, mutual TLS
${fmt.ops(sets.get("mutual TLS")!.opsPerSecond)} sets/s).

Two binring clusters of ${BACKENDS} backends (each with its own redis-server) and ${settings.keepers} keeper${settings.keepers === 1 ? "" : "s"}:
one plaintext, one started with \`--tls-dir\` on the certificates \`binring certs\` wrote, so every
backend and keeper serves TLS and requires the client's certificate, and the client presents it
(\`BinClient\`'s \`tls\`). A set goes from the client to three backends over TLS; a get to one. The
keepers' own calls to the backends are encrypted too.

Both clusters run at once and are measured in turns (which goes first alternates), from one client
process each: 1000 bins, 32-byte values. Before a workload's first cell the load ${warmUpRule(settings)};
then ${settings.durationMs} ms after ${settings.warmupMs} ms warm-up, ${settings.runs} run(s) per cell, the run
with the median throughput reported. On a shared machine a few percent either way is noise.

### The cost of TLS (share of plaintext's ops/s given up, negative when TLS measured faster; p50 as a multiple of plaintext's)

${table(["workload", "concurrency", "plaintext ops/s", "mutual TLS ops/s", "TLS cost", "p50 TLS ÷ plaintext"], summaryRows)}

### Every cell

${table(["workload", "concurrency", "transport", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "errors"], detailRows)}
`,
  };
}
