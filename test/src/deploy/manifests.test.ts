// deploy/k8s: every rendered manifest validates against the Kubernetes schema,
// and the pieces agree with each other and with the binring CLI: Services
// select the StatefulSets' pods, ports match the flags, probes hit what the
// processes serve, Prometheus is pointed at each process's metrics port, and
// the cluster file names the pods the StatefulSets make.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HashRing, parseClusterConfig, ringMembers } from "@binring/core";
import { StatefulSet } from "kubernetes-models/apps/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { CLI_MAIN, REPO_ROOT } from "../support/index.js";
import { type K8sObject, podSpec, renderKustomization } from "./kustomize.js";

const K8S = join(REPO_ROOT, "deploy/k8s");

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/Namespace": Namespace,
  "v1/Service": Service,
  "v1/ConfigMap": ConfigMap,
  "apps/v1/StatefulSet": StatefulSet,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};

const find = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found)
    throw new Error(`no ${kind}/${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`)}`);
  return found;
};
const container = (workload: K8sObject, name: string) => {
  const found = podSpec(workload).containers.find((c: { name: string }) => c.name === name);
  if (!found) throw new Error(`${workload.metadata.name} has no container ${name}`);
  return found;
};
const env = (c: { env?: { name: string; value?: string }[] }, name: string): string => {
  const value = c.env?.find((e) => e.name === name)?.value;
  if (value === undefined) throw new Error(`container sets no ${name}`);
  return value;
};
const namedPort = (c: { ports: { name: string; containerPort: number }[] }, name: string) =>
  c.ports.find((p) => p.name === name)?.containerPort;
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The cluster file in the generated ConfigMap the keepers mount at BINRING_CONFIG. */
function clusterFile(objects: K8sObject[]) {
  const keeper = find(objects, "StatefulSet", "keeper");
  const configPath = env(container(keeper, "keeper"), "BINRING_CONFIG");
  const mount = container(keeper, "keeper").volumeMounts.find((m: { mountPath: string }) =>
    configPath.startsWith(`${m.mountPath}/`),
  );
  const volume = podSpec(keeper).volumes.find((v: { name: string }) => v.name === mount.name);
  const configMap = find(objects, "ConfigMap", volume.configMap.name);
  return parseClusterConfig(JSON.parse(configMap.data[configPath.slice(mount.mountPath.length + 1)]));
}

/** The StatefulSets of one component (several for backends when they are per zone). */
const workloads = (objects: K8sObject[], component: string) =>
  objects.filter(
    (o) =>
      o.kind === "StatefulSet" &&
      o.spec.template.metadata.labels["app.kubernetes.io/component"] === component,
  );

/** The zone a workload's pods are pinned to by node affinity, if any. */
function pinnedZone(workload: K8sObject): string | undefined {
  const terms = podSpec(workload).affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const expression = terms?.nodeSelectorTerms[0].matchExpressions[0];
  if (!expression) return undefined;
  expect(expression).toMatchObject({ key: "topology.kubernetes.io/zone", operator: "In" });
  expect(expression.values).toHaveLength(1);
  return expression.values[0];
}

function checkCluster(objects: K8sObject[], dnsSuffix: string): void {
  for (const object of objects) {
    const Model = MODELS[`${object.apiVersion}/${object.kind}`];
    expect(Model, `${object.apiVersion} ${object.kind} has a schema model`).toBeDefined();
    expect(
      () => new Model!(object as never).validate(),
      `${object.kind}/${object.metadata.name}`,
    ).not.toThrow();
  }
  const backends = workloads(objects, "backend");
  const keeper = find(objects, "StatefulSet", "keeper");
  expect(workloads(objects, "keeper")).toEqual([keeper]);
  expect(backends.length).toBeGreaterThan(0);
  for (const [members, serviceName] of [
    [backends, "backend"],
    [[keeper], "keeper"],
  ] as const) {
    const service = find(objects, "Service", serviceName);
    expect(service.spec.clusterIP).toBe("None");
    expect(service.spec.publishNotReadyAddresses).toBe(true);
    const selected = objects.filter(
      (o) => o.kind === "StatefulSet" && matches(service.spec.selector, o.spec.template.metadata.labels),
    );
    expect(selected).toEqual(members);
    for (const workload of members) {
      expect(workload.spec.serviceName).toBe(serviceName);
      expect(matches(workload.spec.selector.matchLabels, workload.spec.template.metadata.labels)).toBe(true);
      // No two sets may claim each other's pods.
      for (const other of members.filter((o) => o !== workload)) {
        expect(matches(workload.spec.selector.matchLabels, other.spec.template.metadata.labels)).toBe(false);
      }
      const ports = podSpec(workload).containers.flatMap((c: { ports?: unknown[] }) => c.ports ?? []);
      for (const port of service.spec.ports) {
        const target = ports.find((p: { name: string }) => p.name === port.targetPort);
        expect(target?.containerPort, `${serviceName} port ${port.name}`).toBe(port.port);
      }
    }
  }

  // Ports match the flags the containers are given.
  for (const backend of backends) {
    const backendContainer = container(backend, "backend");
    expect(backendContainer.args).toEqual(["backend"]);
    expect(env(backendContainer, "BINRING_LISTEN")).toBe(`0.0.0.0:${namedPort(backendContainer, "grpc")}`);
    const redisArgs: string[] = container(backend, "redis").args;
    expect(env(backendContainer, "BINRING_REDIS")).toBe(
      `redis://127.0.0.1:${redisArgs[redisArgs.indexOf("--port") + 1]}`,
    );
    expect(redisArgs[redisArgs.indexOf("--appendonly") + 1]).toBe("yes");
    expect(container(backend, "redis").volumeMounts).toContainEqual({
      name: backend.spec.volumeClaimTemplates[0].metadata.name,
      mountPath: redisArgs[redisArgs.indexOf("--dir") + 1],
    });
    for (const probe of [backendContainer.readinessProbe, backendContainer.livenessProbe]) {
      expect(probe.tcpSocket).toEqual({ port: "grpc" });
    }
  }
  const keeperContainer = container(keeper, "keeper");
  expect(keeperContainer.args).toEqual(["keeper"]);
  expect(env(keeperContainer, "BINRING_INDEX_FROM_HOSTNAME")).toBe("true");
  expect(env(keeperContainer, "BINRING_LISTEN")).toBe(`0.0.0.0:${namedPort(keeperContainer, "grpc")}`);
  expect(env(keeperContainer, "BINRING_HTTP")).toBe(`0.0.0.0:${namedPort(keeperContainer, "http")}`);
  for (const probe of [keeperContainer.readinessProbe, keeperContainer.livenessProbe]) {
    expect(probe.httpGet).toEqual({ path: "/health", port: "http" });
  }

  // Prometheus scrapes /metrics on the port each process serves HTTP on (its --http).
  for (const [workload, name] of [
    ...backends.map((b) => [b, "backend"] as const),
    [keeper, "keeper"] as const,
  ]) {
    const c = container(workload, name);
    expect(env(c, "BINRING_HTTP")).toBe(`0.0.0.0:${namedPort(c, "http")}`);
    expect(workload.spec.template.metadata.annotations, workload.metadata.name).toEqual({
      "prometheus.io/scrape": "true",
      "prometheus.io/port": String(namedPort(c, "http")),
      "prometheus.io/path": "/metrics",
    });
  }

  // The cluster file names exactly the pods the StatefulSets will have, each with the zone it is pinned to.
  const file = clusterFile(objects);
  const pods = (workload: K8sObject, port: number) =>
    Array.from(
      { length: workload.spec.replicas },
      (_, i) => `${workload.metadata.name}-${i}.${workload.spec.serviceName}${dnsSuffix}:${port}`,
    );
  const backendPods = backends.flatMap((b) => pods(b, namedPort(container(b, "backend"), "grpc")!));
  expect([...file.backends].sort()).toEqual(backendPods.sort());
  expect(file.keepers).toEqual(pods(keeper, namedPort(keeperContainer, "grpc")!));
  for (const backend of backends) {
    const zone = pinnedZone(backend);
    expect(backend.spec.template.metadata.labels["binring.dev/zone"]).toBe(zone);
    for (const pod of pods(backend, 7000)) expect(file.zones?.[pod]).toBe(zone);
  }

  // Drains take one backend at a time; copies spread across nodes; nothing runs privileged.
  const budget = find(objects, "PodDisruptionBudget", "backend");
  expect(budget.spec.maxUnavailable).toBe(1);
  for (const backend of backends) {
    expect(matches(budget.spec.selector.matchLabels, backend.spec.template.metadata.labels)).toBe(true);
    const antiAffinity =
      podSpec(backend).affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0];
    expect(antiAffinity.podAffinityTerm.topologyKey).toBe("kubernetes.io/hostname");
    expect(
      matches(antiAffinity.podAffinityTerm.labelSelector.matchLabels, backend.spec.template.metadata.labels),
    ).toBe(true);
  }
  for (const workload of [...backends, keeper]) {
    const pod = podSpec(workload);
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(pod.automountServiceAccountToken).toBe(false);
    for (const c of pod.containers) {
      const security = { ...pod.securityContext, ...c.securityContext };
      expect(security.runAsUser, c.name).toBeGreaterThan(0);
      expect(c.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ["ALL"] },
      });
      expect(Object.keys(c.resources.requests).sort()).toEqual(["cpu", "memory"]);
      expect(Object.keys(c.resources.limits).sort()).toEqual(["cpu", "memory"]);
      expect(c.readinessProbe && c.livenessProbe, c.name).toBeTruthy();
    }
  }
}

/** `binring cluster-file` as scale.sh runs it. */
function generated(backends: number, keepers: number, namespace: string, zones?: string) {
  const output = execFileSync(process.execPath, [
    CLI_MAIN,
    "cluster-file",
    "--backends",
    String(backends),
    "--keepers",
    String(keepers),
    ...(zones ? ["--zones", zones] : []),
    "--backend-address",
    zones ? `backend-{zone}-{i}.backend.${namespace}.svc:7000` : `backend-{i}.backend.${namespace}.svc:7000`,
    "--keeper-address",
    `keeper-{i}.keeper.${namespace}.svc:7600`,
  ]);
  return JSON.parse(output.toString());
}

describe("deploy/k8s", () => {
  it("base: validates, and its parts agree (6 backends, 3 keepers, names within the namespace)", () => {
    const objects = renderKustomization(join(K8S, "base"));
    checkCluster(objects, "");
    expect(find(objects, "StatefulSet", "backend").spec.replicas).toBe(6);
    expect(find(objects, "StatefulSet", "keeper").spec.replicas).toBe(3);
  });

  it("example overlay: validates, agrees, and its cluster file is what scale.sh generates", () => {
    const objects = renderKustomization(join(K8S, "overlays/example"));
    checkCluster(objects, ".binring.svc");
    expect(
      objects.filter((o) => o.kind !== "Namespace").every((o) => o.metadata.namespace === "binring"),
    ).toBe(true);
    expect(container(find(objects, "StatefulSet", "keeper"), "keeper").image).toBe(
      "registry.example.com/binring:0.1.0",
    );
    expect(clusterFile(objects)).toEqual(parseClusterConfig(generated(6, 3, "binring")));
  });

  it("zones overlay: one backend set per zone, pinned by node affinity, each pod listed with its zone", () => {
    const objects = renderKustomization(join(K8S, "overlays/zones"));
    checkCluster(objects, ".binring.svc");
    expect(
      workloads(objects, "backend").map((b) => [b.metadata.name, b.spec.replicas, pinnedZone(b)]),
    ).toEqual([
      ["backend-zone-a", 2, "zone-a"],
      ["backend-zone-b", 2, "zone-b"],
      ["backend-zone-c", 2, "zone-c"],
    ]);
    expect(clusterFile(objects)).toEqual(
      parseClusterConfig(generated(2, 3, "binring", "zone-a,zone-b,zone-c")),
    );
    // What the clients and keepers will compute from it: every bin in three zones.
    const file = clusterFile(objects);
    const ring = new HashRing(ringMembers(file.backends, file.zones));
    for (let i = 0; i < 500; i++) {
      expect(new Set(ring.replicasFor(`bin-${i}`).map((id) => file.zones![id])).size).toBe(3);
    }
  });

  it("scaling is one number: scale.sh 9 gives 9 backend pods and a cluster file naming them", () => {
    const copy = mkdtempSync(join(tmpdir(), "binring-k8s-"));
    cpSync(K8S, copy, { recursive: true });
    const overlay = join(copy, "overlays/example");
    const before = renderKustomization(overlay);
    const scale = (count: string) =>
      execFileSync("sh", [join(copy, "scale.sh"), overlay, count], {
        env: { ...process.env, BINRING: `${process.execPath} ${CLI_MAIN}` },
        stdio: "pipe",
      });
    scale("9");
    const after = renderKustomization(overlay);
    checkCluster(after, ".binring.svc");
    expect(find(after, "StatefulSet", "backend").spec.replicas).toBe(9);
    expect(clusterFile(after).backends).toHaveLength(9);
    // A new cluster file is a new ConfigMap name: the keepers roll, the backends do not.
    const volume = (objects: K8sObject[]) =>
      podSpec(find(objects, "StatefulSet", "keeper")).volumes[0].configMap.name;
    expect(volume(after)).not.toBe(volume(before));
    expect(podSpec(find(after, "StatefulSet", "backend"))).toEqual(
      podSpec(find(before, "StatefulSet", "backend")),
    );
    const refused = (() => {
      try {
        scale("0");
        return "";
      } catch (error) {
        return String((error as { stderr: Buffer }).stderr);
      }
    })();
    expect(refused).toMatch(/--backends must be a positive integer, got "0"/);
    expect(find(renderKustomization(overlay), "StatefulSet", "backend").spec.replicas).toBe(9);

    // Zoned: the number is backends per zone.
    const zones = join(copy, "overlays/zones");
    execFileSync("sh", [join(copy, "scale.sh"), zones, "3"], {
      env: { ...process.env, BINRING: `${process.execPath} ${CLI_MAIN}` },
      stdio: "pipe",
    });
    const zoned = renderKustomization(zones);
    checkCluster(zoned, ".binring.svc");
    expect(workloads(zoned, "backend").map((b) => b.spec.replicas)).toEqual([3, 3, 3]);
    expect(find(zoned, "StatefulSet", "keeper").spec.replicas).toBe(3);
  });
});
