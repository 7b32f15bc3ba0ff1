// The image's entry point without Docker: the exact commands and BINRING_*
// environment the Kubernetes manifests give their containers, run as child
// processes of `node packages/cli/dist/main.js` (what the ENTRYPOINT runs under
// tini). Only what is cluster-specific is mapped to this machine: 0.0.0.0:PORT
// to a free loopback port, the Redis URL to a test redis-server, the cluster
// file path to a temporary file. The keeper runs with hostname keeper-1 (a
// UTS namespace), as a StatefulSet pod would, and takes its index from it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ChildProcess,
  CLI_MAIN,
  freePort,
  keeperStatus,
  REPO_ROOT,
  RedisServer,
  runCli,
  waitFor,
} from "../support/index.js";
import { podSpec, renderKustomization } from "./kustomize.js";

const objects = renderKustomization(join(REPO_ROOT, "deploy/k8s/overlays/example"));
const containerOf = (workload: string, name: string) =>
  podSpec(objects.find((o) => o.kind === "StatefulSet" && o.metadata.name === workload)!).containers.find(
    (c: { name: string }) => c.name === name,
  ) as {
    args: string[];
    env: { name: string; value: string }[];
    readinessProbe: { httpGet?: { path: string } };
  };

/** The container's environment, with addresses and paths mapped by `map`. */
function environment(
  container: ReturnType<typeof containerOf>,
  map: Record<string, string>,
): Record<string, string> {
  const env = Object.fromEntries(container.env.map(({ name, value }) => [name, value]));
  for (const [name, value] of Object.entries(map)) {
    expect(env, `the manifest sets ${name}`).toHaveProperty(name);
    env[name] = value;
  }
  return env;
}

const started: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const process_ of started.reverse()) await process_.stop();
});

describe("the image's entry point, run as the manifests run it", () => {
  it("starts a backend and a keeper (index from the hostname) that serve gRPC, /health and /metrics", async () => {
    const redis = await RedisServer.start({ appendOnly: true });
    started.push(redis);
    const [backendPort, backendHttpPort] = [await freePort(), await freePort()];
    const backendContainer = containerOf("backend", "backend");
    expect(environment(backendContainer, {}).BINRING_LISTEN).toMatch(/^0\.0\.0\.0:\d+$/);
    const backend = await ChildProcess.spawn(
      "backend",
      process.execPath,
      [CLI_MAIN, ...backendContainer.args],
      {
        env: environment(backendContainer, {
          BINRING_LISTEN: `127.0.0.1:${backendPort}`,
          BINRING_HTTP: `127.0.0.1:${backendHttpPort}`,
          BINRING_REDIS: redis.url,
        }),
        readyLine: /"msg":"backend listening"/,
        timeoutMs: 20_000,
      },
    );
    started.push({ stop: () => backend.child.kill("SIGTERM") });
    const backendAddress = `127.0.0.1:${backendPort}`;
    // What the manifest's scrape annotations point Prometheus at.
    expect((await fetch(`http://127.0.0.1:${backendHttpPort}/metrics`)).status).toBe(200);

    // As in Kubernetes, the cluster file names keepers by DNS (here unresolvable): keeper 1 binds --listen.
    const dir = mkdtempSync(join(tmpdir(), "binring-entrypoint-"));
    const configPath = join(dir, "binring.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        backends: [backendAddress],
        keepers: ["keeper-0.keeper.invalid:7600", "keeper-1.keeper.invalid:7600"],
      }),
    );
    const [keeperPort, httpPort] = [await freePort(), await freePort()];
    const keeperContainer = containerOf("keeper", "keeper");
    const keeper = await ChildProcess.spawn(
      "keeper",
      "unshare",
      [
        "--uts",
        "sh",
        "-c",
        'hostname keeper-1 && exec "$0" "$@"',
        process.execPath,
        CLI_MAIN,
        ...keeperContainer.args,
      ],
      {
        env: environment(keeperContainer, {
          BINRING_CONFIG: configPath,
          BINRING_LISTEN: `127.0.0.1:${keeperPort}`,
          BINRING_HTTP: `127.0.0.1:${httpPort}`,
        }),
        readyLine: /"msg":"keeper listening"/,
        timeoutMs: 20_000,
      },
    );
    started.push({ stop: () => keeper.child.kill("SIGTERM") });
    expect(keeper.child.output()).toContain(`"address":"127.0.0.1:${keeperPort}"`);

    // The probe path of the manifest answers, and names keeper 1.
    const health = await fetch(`http://127.0.0.1:${httpPort}${keeperContainer.readinessProbe.httpGet!.path}`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, keeper: "keeper-1" });

    // The keeper sees the backend over gRPC and makes it ready; data flows through it.
    await waitFor(
      "the keeper to report the backend ready",
      async () => (await keeperStatus(`127.0.0.1:${httpPort}`)).backends.find((b) => b.state === "ready"),
      { timeoutMs: 20_000 },
    );
    const clientFile = join(dir, "client.json");
    writeFileSync(
      clientFile,
      JSON.stringify({ backends: [backendAddress], keepers: [`127.0.0.1:${keeperPort}`] }),
    );
    expect(
      (await runCli(["set", "--bin", "deploy", "greeting", "hello", "--config", clientFile])).stdout,
    ).toBe("OK\n");
    expect(
      (await runCli(["get", "--bin", "deploy", "greeting"], { env: { BINRING_CONFIG: clientFile } })).stdout,
    ).toBe("hello\n");
  });
});
