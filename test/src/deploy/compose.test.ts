// deploy/compose: the Compose file parses, runs the image the Kubernetes
// manifests run with the same commands and ports, gives every backend its own
// Redis with an append-only file on its own volume, its cluster file names
// exactly the services it starts, and Prometheus scrapes every one of them.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseClusterConfig } from "@binring/core";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { CLI_MAIN, REPO_ROOT } from "../support/index.js";
import { podSpec, renderKustomization } from "./kustomize.js";

const COMPOSE_DIR = join(REPO_ROOT, "deploy/compose");

interface ComposeService {
  image: string;
  command: string[];
  init?: boolean;
  read_only?: boolean;
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: unknown;
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
      const redisService = /^redis:\/\/([^:]+):(\d+)$/.exec(environment.BINRING_REDIS!)!;
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
    expect(clusterFileText).toBe(generated);
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
