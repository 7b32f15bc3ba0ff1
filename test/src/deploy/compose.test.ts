// deploy/compose: the Compose file parses, runs the image the Kubernetes
// manifests run with the same commands and ports, gives every backend its own
// Redis with an append-only file on its own volume, its cluster file names
// exactly the services it starts, and Prometheus scrapes every one of them.
// Security: a one-shot service makes the certificates (run here, as Compose
// would run its command), every backend and keeper serves mutual TLS with them,
// and each Redis wants a password that only its backend's URL carries.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseClusterConfig } from "@binring/core";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI_MAIN, REPO_ROOT } from "../support/index.js";
import { podSpec, renderKustomization } from "./kustomize.js";

const COMPOSE_DIR = join(REPO_ROOT, "deploy/compose");

interface ComposeService {
  image: string;
  entrypoint?: string[];
  command: string[];
  init?: boolean;
  read_only?: boolean;
  restart?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
}

const compose = parse(readFileSync(join(COMPOSE_DIR, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const clusterFileText = readFileSync(join(COMPOSE_DIR, "binring.json"), "utf8");
const cluster = parseClusterConfig(JSON.parse(clusterFileText));
const k8s = renderKustomization(join(REPO_ROOT, "deploy/k8s/base"));
const k8sContainer = (workload: string) =>
  podSpec(k8s.find((o) => o.kind === "StatefulSet" && o.metadata.name === workload)!).containers[0];
const backends = Object.keys(services).filter((name) => name.startsWith("backend-"));
const keepers = Object.keys(services).filter((name) => name.startsWith("keeper-"));
const redises = Object.keys(services).filter((name) => name.startsWith("redis-"));
/** What every Redis password in the file is: Compose substitutes REDIS_PASSWORD, and refuses to run without it. */
const PASSWORD = /^\$\{REDIS_PASSWORD:\?[^}]+\}$/;

describe("deploy/compose", () => {
  it("starts 6 backends and 3 keepers from the Kubernetes image, with the same commands", () => {
    expect(backends).toHaveLength(6);
    expect(keepers).toHaveLength(3);
    for (const name of [...backends, ...keepers]) {
      const service = services[name]!;
      const role = name.startsWith("backend-") ? "backend" : "keeper";
      expect(service.image).toBe(k8sContainer(role).image);
      expect(service.command).toEqual(k8sContainer(role).args);
      expect(service.init).toBe(true);
      expect(service.read_only).toBe(true);
    }
  });

  it("gives each backend its own Redis with an append-only file on its own volume", () => {
    const volumes = new Set<string>();
    for (const name of backends) {
      const environment = services[name]!.environment!;
      const redisService = /^redis:\/\/:[^@]*@([^:]+):(\d+)$/.exec(environment.BINRING_REDIS!)!;
      const redis = services[redisService[1]!]!;
      const args = redis.command;
      expect(args[args.indexOf("--appendonly") + 1]).toBe("yes");
      const [volume, mountPath] = redis.volumes![0]!.split(":");
      expect(mountPath).toBe(args[args.indexOf("--dir") + 1]);
      expect(compose.volumes).toHaveProperty(volume!);
      volumes.add(volume!);
    }
    expect(volumes.size).toBe(backends.length);
  });

  it("makes the certificates once, in a volume: a one-shot service run again keeps them, RENEW=1 renews", () => {
    const certs = services.certs!;
    expect(certs.image).toBe(services["backend-0"]!.image);
    expect(certs.restart).toBe("no");
    const [volume, mountPath] = certs.volumes![0]!.split(":");
    expect(compose.volumes).toHaveProperty(volume!);
    expect(certs.entrypoint).toEqual(["/bin/sh", "-c"]);
    // Compose turns $$ into $; the mount path and the image's CLI are mapped to this machine.
    const script = certs.command[0]!.replaceAll("$$", "$").replaceAll(
      "node /app/packages/cli/dist/main.js",
      `${process.execPath} ${CLI_MAIN}`,
    );
    const hosts = /--hosts (\S+)/.exec(script)![1]!.split(",");
    expect(hosts).toEqual([...backends, ...keepers]);
    const dir = mkdtempSync(join(tmpdir(), "binring-compose-certs-"));
    const run = (env: Record<string, string> = {}) =>
      execFileSync("sh", ["-c", script.replaceAll(mountPath!, dir)], { env: { ...process.env, ...env } });
    const read = (file: string) => readFileSync(join(dir, file), "utf8");
    run();
    const [ca, client] = [read("ca.pem"), read("client.pem")];
    run();
    expect([read("ca.pem"), read("client.pem")]).toEqual([ca, client]);
    run({ RENEW: "1" });
    expect(read("ca.pem")).toBe(ca);
    expect(read("client.pem")).not.toBe(client);
    rmSync(dir, { recursive: true });

    // A new named volume takes the owner of the image's directory: the image's user may write there.
    const dockerfile = readFileSync(join(REPO_ROOT, "deploy/Dockerfile"), "utf8");
    const user = /^USER (\S+)$/m.exec(dockerfile)![1]!;
    expect(dockerfile).toContain(`RUN mkdir ${mountPath} && chown ${user} ${mountPath}\n`);
  });

  it("runs every backend and keeper with mutual TLS from that volume, once the certificates exist", () => {
    const [volume, mountPath] = services.certs!.volumes![0]!.split(":");
    for (const name of [...backends, ...keepers]) {
      const service = services[name]!;
      // They listen on 0.0.0.0, which they refuse without TLS.
      expect(service.environment!.BINRING_LISTEN).toMatch(/^0\.0\.0\.0:/);
      expect(service.environment!.BINRING_TLS_DIR).toBe(mountPath);
      expect(service.environment).not.toHaveProperty("BINRING_INSECURE");
      expect(service.volumes).toContain(`${volume}:${mountPath}:ro`);
      expect(service.depends_on).toMatchObject({ certs: { condition: "service_completed_successfully" } });
    }
    // The cluster file (docker compose run ... keeper-0 get) calls with the client certificate.
    expect(cluster.tls).toEqual({
      ca: `${mountPath}/ca.pem`,
      cert: `${mountPath}/client.pem`,
      key: `${mountPath}/client-key.pem`,
    });
  });

  it("gives each Redis the password from REDIS_PASSWORD, which its backend's URL carries, and no host port", () => {
    expect(redises).toHaveLength(backends.length);
    for (const name of redises) {
      const redis = services[name]!;
      const password = redis.command[redis.command.indexOf("--requirepass") + 1]!;
      expect(password).toMatch(PASSWORD);
      // What redis-cli, the health check, authenticates with.
      expect(redis.environment!.REDISCLI_AUTH).toBe(password);
      expect(redis.ports).toBeUndefined();
    }
    // Whatever is published (HTTP of keeper-0, Prometheus, Grafana) is reachable from this host only.
    for (const service of Object.values(services)) {
      for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
    for (const name of backends) {
      const url = /^redis:\/\/:([^@]+)@(redis-\d+):6379$/.exec(services[name]!.environment!.BINRING_REDIS!)!;
      expect(url[1]).toMatch(PASSWORD);
      expect(url[2]).toBe(name.replace("backend-", "redis-"));
    }
  });

  it("names in its cluster file exactly the backends and keepers it starts, on their listen ports", () => {
    expect(cluster.backends).toEqual(
      backends.map((name) => `${name}:${services[name]!.environment!.BINRING_LISTEN!.split(":")[1]}`),
    );
    expect(cluster.keepers).toEqual(
      keepers.map((name) => `${name}:${services[name]!.environment!.BINRING_LISTEN!.split(":")[1]}`),
    );
    keepers.forEach((name, index) => {
      const environment = services[name]!.environment!;
      expect(environment.BINRING_INDEX).toBe(String(index));
      expect(services[name]!.volumes).toContain(`./binring.json:${environment.BINRING_CONFIG}:ro`);
    });
    const generated = execFileSync(process.execPath, [
      CLI_MAIN,
      "cluster-file",
      "--backends",
      "6",
      "--keepers",
      "3",
      "--backend-address",
      "backend-{i}:7000",
      "--keeper-address",
      "keeper-{i}:7600",
    ]).toString();
    // Plus the "tls" the CLI and the SDK call with (checked above).
    expect(clusterFileText).toBe(
      `${JSON.stringify({ ...JSON.parse(generated), tls: cluster.tls }, null, 2)}\n`,
    );
  });

  it("has Prometheus scrape every backend and keeper on its HTTP port, and Grafana load the dashboard", () => {
    const prometheus = parse(readFileSync(join(COMPOSE_DIR, "prometheus.yml"), "utf8")) as {
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const targets = (job: string) =>
      prometheus.scrape_configs.find((c) => c.job_name === job)!.static_configs.flatMap((c) => c.targets);
    const httpOf = (name: string) => `${name}:${services[name]!.environment!.BINRING_HTTP!.split(":")[1]}`;
    expect(targets("binring-backend")).toEqual(backends.map(httpOf));
    expect(targets("binring-keeper")).toEqual(keepers.map(httpOf));
    expect(services.prometheus!.volumes).toContain("./prometheus.yml:/etc/prometheus/prometheus.yml:ro");
    const dashboardMount = services.grafana!.volumes!.find((v) =>
      v.startsWith("../grafana/binring-dashboard.json:"),
    );
    expect(dashboardMount).toBeDefined();
    expect(readFileSync(join(COMPOSE_DIR, dashboardMount!.split(":")[0]!), "utf8")).toContain(
      '"uid": "binring-overview"',
    );
  });

  it("health-checks each keeper's /health on its HTTP port", () => {
    for (const name of keepers) {
      const { healthcheck, environment } = services[name]!;
      const port = environment!.BINRING_HTTP!.split(":")[1];
      expect(healthcheck!.test.join(" ")).toContain(`http://127.0.0.1:${port}/health`);
    }
  });
});
