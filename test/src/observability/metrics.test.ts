// Prometheus metrics on a running cluster (issue 23): every backend and keeper
// serves /metrics; a workload moves the backends' call counters and latency
// histograms, and a killed backend shows dead in the keeper's state gauge
// while its repair moves the keeper's repair counters. Each process also
// serves its own CPU, memory and event-loop delay. Samples are read with a
// Prometheus text parser (scrape.ts). The Grafana dashboard queries only
// metrics found there.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BinClient } from "@binring/client";
import { Registry } from "prom-client";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, REPO_ROOT, waitFor, waitForSettled } from "../support/index.js";
import { parseExposition, type Scrape, scrape, total, totalOver } from "./scrape.js";

let cluster: LocalCluster | undefined;
let client: BinClient | undefined;
afterAll(async () => {
  await client?.close();
  await cluster?.stop();
});

const CALLS = 60;

it("counts calls, latency, a death and its repair on /metrics", async () => {
  cluster = await LocalCluster.start({ backends: 4, keepers: 1 });
  const c = cluster;
  const keeperHttp = c.keeperHttp[0]!;
  await waitForSettled(keeperHttp, Object.fromEntries(c.addresses.map((a) => [a, "ready"])));
  const backendsHttp = c.members.map((member) => member.http);
  const scrapeBackends = () => Promise.all(backendsHttp.map((address) => scrape(address)));

  const [backendsBefore, keeperBefore] = await Promise.all([scrapeBackends(), scrape(keeperHttp)]);
  for (const families of backendsBefore) {
    expect(total(families, "binring_backend_readiness_state", { state: "ready" })).toBe(1);
    expect(total(families, "binring_backend_lease_remaining_seconds")).toBeGreaterThan(0);
    expect(total(families, "binring_backend_incarnation_info")).toBe(1);
  }
  expect(total(keeperBefore, "binring_keeper_owned_backends")).toBe(4);
  // Each process's own CPU and event-loop delay, beside its backend's or keeper's series.
  for (const families of [...backendsBefore, keeperBefore]) {
    expect(total(families, "process_cpu_seconds_total")).toBeGreaterThan(0);
    expect(total(families, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThan(0);
  }
  for (const address of c.addresses)
    expect(total(keeperBefore, "binring_keeper_backend_state", { backend: address, state: "ready" })).toBe(1);

  const clientRegistry = new Registry();
  client = new BinClient({ backends: c.addresses, keepers: c.keepers, metrics: clientRegistry });
  for (let i = 0; i < CALLS; i++) await client.bin(`bin-${i}`).set("k", `v${i}`);
  for (let i = 0; i < CALLS; i++) expect(await client.bin(`bin-${i}`).get("k")).toBe(`v${i}`);
  // The SDK's own metrics, on the registry the application gave it, read through the same parser.
  const clientSide = parseExposition(await clientRegistry.metrics());
  expect(total(clientSide, "binring_client_operations_total", { operation: "set", outcome: "OK" })).toBe(
    CALLS,
  );
  expect(total(clientSide, "binring_client_operations_total", { operation: "get", outcome: "OK" })).toBe(
    CALLS,
  );
  expect(total(clientSide, "binring_client_operation_duration_seconds_count", { operation: "get" })).toBe(
    CALLS,
  );
  expect(total(clientSide, "binring_client_view_epoch")).toBeGreaterThan(0);

  const backendsAfter = await scrapeBackends();
  const moved = (name: string, labels: Record<string, string>) =>
    totalOver(backendsAfter, name, labels) - totalOver(backendsBefore, name, labels);
  // A write is one message to its coordinator, and reaches every live copy (three) before it is
  // acknowledged; a read at least one.
  expect(moved("binring_backend_calls_total", { method: "Write", code: "OK" })).toBe(CALLS);
  expect(moved("binring_backend_calls_total", { method: "Set", code: "OK" })).toBeGreaterThanOrEqual(
    3 * CALLS,
  );
  expect(moved("binring_backend_calls_total", { method: "Get", code: "OK" })).toBeGreaterThanOrEqual(CALLS);
  expect(moved("binring_backend_call_duration_seconds_count", { method: "Set" })).toBeGreaterThanOrEqual(
    3 * CALLS,
  );
  expect(moved("binring_backend_call_duration_seconds_count", { method: "Get" })).toBeGreaterThanOrEqual(
    CALLS,
  );
  expect(moved("binring_backend_batch_operations_count", {})).toBeGreaterThan(0);
  expect(moved("binring_backend_redis_call_duration_seconds_count", {})).toBeGreaterThan(0);

  const [victim, ...survivors] = c.addresses;
  await c.kill(victim!, { withRedis: true });
  const keeperAfter = await waitFor(
    "the keeper's metrics to show the victim dead and its repair finished",
    async () => {
      const families = await scrape(keeperHttp);
      const dead = total(families, "binring_keeper_backend_state", { backend: victim!, state: "dead" }) === 1;
      const repaired = total(families, "binring_keeper_repairs_finished_total", { kind: "repair" }) >= 1;
      return dead && repaired && families;
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  const keeperMoved = (name: string, labels: Record<string, string> = {}) =>
    total(keeperAfter, name, labels) - total(keeperBefore, name, labels);
  expect(total(keeperAfter, "binring_keeper_backend_state", { backend: victim!, state: "ready" })).toBe(0);
  expect(keeperMoved("binring_keeper_heartbeat_misses_total", { backend: victim! })).toBeGreaterThanOrEqual(
    3,
  );
  expect(keeperMoved("binring_keeper_repairs_started_total", { kind: "repair" })).toBeGreaterThanOrEqual(1);
  expect(keeperMoved("binring_keeper_repairs_finished_total", { kind: "repair" })).toBeGreaterThanOrEqual(1);
  expect(keeperMoved("binring_keeper_repair_entries_copied_total", { kind: "repair" })).toBeGreaterThan(0);
  expect(
    keeperMoved("binring_keeper_repair_duration_seconds_count", { kind: "repair" }),
  ).toBeGreaterThanOrEqual(1);
  expect(keeperMoved("binring_keeper_view_epoch")).toBeGreaterThan(0);

  // The repair copied onto survivors with Apply, under an epoch pushed to them before it began.
  const survivorsAfter: Scrape[] = await Promise.all(
    survivors.map((address) => scrape(c.member(address).http)),
  );
  const survivorsBefore = backendsBefore.slice(1);
  expect(
    totalOver(survivorsAfter, "binring_backend_apply_entries_sum") -
      totalOver(survivorsBefore, "binring_backend_apply_entries_sum"),
  ).toBeGreaterThan(0);
  for (const [i, families] of survivorsAfter.entries())
    expect(total(families, "binring_backend_epoch")).toBeGreaterThan(
      total(survivorsBefore[i]!, "binring_backend_epoch"),
    );

  // The Grafana dashboard (deploy/grafana) queries only metrics the processes export.
  const exported = new Set([...survivorsAfter, keeperAfter].flat().map((family) => family.name));
  const dashboard = JSON.parse(
    readFileSync(join(REPO_ROOT, "deploy/grafana/binring-dashboard.json"), "utf8"),
  ) as {
    panels: { targets: { expr: string }[] }[];
  };
  const queried = dashboard.panels.flatMap((panel) =>
    panel.targets.flatMap((target) => target.expr.match(/\b(?:binring|process|nodejs)_\w+/g) ?? []),
  );
  expect(queried.length).toBeGreaterThan(10);
  expect(queried.filter((name) => !exported.has(name))).toEqual([]);
}, 90_000);
