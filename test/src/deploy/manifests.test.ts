// deploy/k8s: every rendered manifest validates against the Kubernetes schema,
// and the pieces agree with each other and with the binring CLI: Services
// select the StatefulSets' pods, ports match the flags, probes hit what the
// processes serve, Prometheus is pointed at each process's metrics port, the
// cluster file (the seed) names the pods the StatefulSets make, and every pod
// joins under the name the file gives it, so scale.sh changes only the counts
// and refuses a scale-down that skips the drain. Security: every
// backend and keeper serves mutual TLS with its role's certificate from Secret
// binring-tls, each Redis wants the password from Secret binring-redis, and the
// NetworkPolicies admit exactly the callers deploy/README.md promises.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HashRing, parseClusterConfig, ringMembers } from "@binring/core";
import { StatefulSet } from "kubernetes-models/apps/v1";
import { NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
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
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
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
/** The Secret key an environment variable is read from. */
const secretEnv = (c: { env?: { name: string; valueFrom?: { secretKeyRef?: unknown } }[] }, name: string) => {
  const ref = c.env?.find((e) => e.name === name)?.valueFrom?.secretKeyRef;
  if (ref === undefined) throw new Error(`container takes no ${name} from a Secret`);
  return ref;
};
const namedPort = (c: { ports: { name: string; containerPort: number }[] }, name: string) =>
  c.ports.find((p) => p.name === name)?.containerPort;
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The ConfigMap and key a container reads its cluster file (BINRING_CONFIG) from. */
function clusterFileSource(workload: K8sObject, name: string): { configMap: string; key: string } {
  const c = container(workload, name);
  const configPath = env(c, "BINRING_CONFIG");
  const mount = c.volumeMounts.find((m: { mountPath: string }) => configPath.startsWith(`${m.mountPath}/`));
  expect(mount, `${workload.metadata.name} mounts ${configPath}`).toMatchObject({ readOnly: true });
  const volume = podSpec(workload).volumes.find((v: { name: string }) => v.name === mount.name);
  return { configMap: volume.configMap.name, key: configPath.slice(mount.mountPath.length + 1) };
}

/** The cluster file in the generated ConfigMap the keepers mount at BINRING_CONFIG. */
function clusterFile(objects: K8sObject[]) {
  const { configMap, key } = clusterFileSource(find(objects, "StatefulSet", "keeper"), "keeper");
  return parseClusterConfig(JSON.parse(find(objects, "ConfigMap", configMap).data[key]));
}

/**
 * A flag as the process of pod ORDINAL of a workload sees it: `--NAME [VALUE]` in
 * the args, else BINRING_NAME, with the environment as the kubelet makes it
 * (fieldRefs of the pod's name and namespace read, $(NAME) expanded from the
 * variables before it; in args, from all of them). Undefined when not given.
 */
function podFlag(workload: K8sObject, name: string, ordinal: number, flag: string): string | undefined {
  const c = container(workload, name);
  const fields: Record<string, string> = {
    "metadata.name": `${workload.metadata.name}-${ordinal}`,
    "metadata.namespace": workload.metadata.namespace ?? "default",
  };
  const vars: Record<string, string> = {};
  const expand = (text: string) => text.replace(/\$\((\w+)\)/g, (whole, v: string) => vars[v] ?? whole);
  for (const e of c.env ?? []) {
    const field = e.valueFrom?.fieldRef?.fieldPath;
    if (field !== undefined) {
      if (!(field in fields)) throw new Error(`${e.name}: fieldRef ${field} is not evaluated by this test`);
      vars[e.name] = fields[field]!;
    } else if (e.value !== undefined) vars[e.name] = expand(e.value);
  }
  const args: string[] = c.args;
  const at = args.indexOf(`--${flag}`);
  if (at >= 0) {
    const next = args[at + 1];
    return next === undefined || next.startsWith("--") ? "true" : expand(next);
  }
  return vars[`BINRING_${flag.toUpperCase().replaceAll("-", "_")}`];
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

/**
 * The files of Secret binring-tls a container serves mutual TLS with: its
 * BINRING_TLS_DIR is a read-only mount of them, updated in place on renewal.
 */
function tlsFiles(workload: K8sObject, name: string): string[] {
  const c = container(workload, name);
  const dir = env(c, "BINRING_TLS_DIR");
  expect(c.env.some((e: { name: string }) => e.name === "BINRING_INSECURE")).toBe(false);
  const mount = c.volumeMounts.find((m: { mountPath: string }) => m.mountPath === dir);
  expect(mount, `${workload.metadata.name} mounts ${dir}`).toMatchObject({ readOnly: true });
  // A subPath mount would never see the renewed Secret.
  expect(mount.subPath).toBeUndefined();
  const { secret } = podSpec(workload).volumes.find((v: { name: string }) => v.name === mount.name);
  expect(secret.secretName).toBe("binring-tls");
  // Owner and group only; the pod's fsGroup is the group, and every container is in it.
  expect(secret.defaultMode).toBe(0o440);
  expect(podSpec(workload).securityContext.fsGroup).toBeGreaterThan(0);
  for (const item of secret.items) expect(item.path).toBe(item.key);
  return secret.items.map((item: { key: string }) => item.key);
}

/** Redis's units (mb: 2^20 bytes) and Kubernetes' (Mi, Gi), in bytes. */
function bytes(quantity: string): number {
  const UNITS: Record<string, number> = { mb: 2 ** 20, gb: 2 ** 30, Mi: 2 ** 20, Gi: 2 ** 30 };
  const match = /^(\d+)(mb|gb|Mi|Gi)$/.exec(quantity);
  if (!match) throw new Error(`unexpected quantity ${quantity}`);
  return Number(match[1]) * UNITS[match[2]!]!;
}

interface Pod {
  namespace: string;
  labels: Record<string, string>;
}
type Selector = { matchLabels?: Record<string, string>; matchExpressions?: unknown };
const selects = (selector: Selector, labels: Record<string, string>) => {
  if (selector.matchExpressions) throw new Error("matchExpressions: not evaluated by this test");
  return matches(selector.matchLabels ?? {}, labels);
};

/** Whether the NetworkPolicies let `from` connect to a workload's pods on their port named `portName`. */
function admits(objects: K8sObject[], workload: K8sObject, portName: string, from: Pod): boolean {
  const namespace = workload.metadata.namespace ?? "default";
  const policies = objects.filter(
    (o) =>
      o.kind === "NetworkPolicy" &&
      (o.metadata.namespace ?? "default") === namespace &&
      (o.spec.policyTypes ?? ["Ingress"]).includes("Ingress") &&
      selects(o.spec.podSelector, workload.spec.template.metadata.labels),
  );
  expect(policies.length, `a NetworkPolicy isolates ${workload.metadata.name}`).toBeGreaterThan(0);
  const port = podSpec(workload)
    .containers.flatMap((c: { ports?: unknown[] }) => c.ports ?? [])
    .find((p: { name: string }) => p.name === portName);
  const peerMatches = (peer: { podSelector?: Selector; namespaceSelector?: Selector; ipBlock?: unknown }) => {
    if (peer.ipBlock) throw new Error("ipBlock: not evaluated by this test");
    const inNamespace = peer.namespaceSelector
      ? selects(peer.namespaceSelector, { "kubernetes.io/metadata.name": from.namespace })
      : from.namespace === namespace;
    return inNamespace && (!peer.podSelector || selects(peer.podSelector, from.labels));
  };
  return policies.some((policy) =>
    (policy.spec.ingress ?? []).some(
      (rule: { ports?: { port: string | number }[]; from?: [] }) =>
        (!rule.ports || rule.ports.some((p) => p.port === port.name || p.port === port.containerPort)) &&
        (!rule.from || rule.from.some(peerMatches)),
    ),
  );
}

/**
 * The checks every rendering passes. `seeded`: the cluster file lists exactly the pods (a new
 * cluster's seed); after scaling, it lists the seed it had, which the caller checks is unchanged.
 */
function checkCluster(objects: K8sObject[], dnsSuffix: string, seeded = true): void {
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
    const redis = container(backend, "redis");
    const redisArgs: string[] = redis.args;
    const redisFlag = (flag: string) => redisArgs[redisArgs.indexOf(flag) + 1]!;
    expect(redisFlag("--appendonly")).toBe("yes");
    // Redis: on the pod's loopback, with the password of Secret binring-redis, which the backend's URL carries.
    expect(redisFlag("--bind")).toBe("127.0.0.1");
    expect(redisFlag("--requirepass")).toBe("$(REDISCLI_AUTH)");
    const password = secretEnv(redis, "REDISCLI_AUTH");
    expect(password).toEqual({ name: "binring-redis", key: "password" });
    expect(secretEnv(backendContainer, "REDIS_PASSWORD")).toEqual(password);
    expect(env(backendContainer, "BINRING_REDIS")).toBe(
      `redis://:$(REDIS_PASSWORD)@127.0.0.1:${redisFlag("--port")}`,
    );
    // Kubernetes expands $(NAME) only from variables listed before it.
    const names = backendContainer.env.map((e: { name: string }) => e.name);
    expect(names.indexOf("REDIS_PASSWORD")).toBeLessThan(names.indexOf("BINRING_REDIS"));
    // A full Redis refuses writes rather than be killed at its memory limit.
    expect(redisFlag("--maxmemory-policy")).toBe("noeviction");
    expect(bytes(redisFlag("--maxmemory"))).toBeLessThan(bytes(redis.resources.limits.memory));
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

  // The cluster file (the seed) names exactly the pods the StatefulSets will have, each with the zone it is
  // pinned to.
  const file = clusterFile(objects);
  const podAddress = (workload: K8sObject, name: string, i: number) =>
    `${workload.metadata.name}-${i}.${workload.spec.serviceName}${dnsSuffix}:${namedPort(container(workload, name), "grpc")}`;
  const pods = (workload: K8sObject, name: string) =>
    Array.from({ length: workload.spec.replicas }, (_, i) => podAddress(workload, name, i));
  if (seeded) {
    const backendPods = backends.flatMap((b) => pods(b, "backend"));
    expect([...file.backends].sort()).toEqual(backendPods.sort());
    expect(file.keepers).toEqual(pods(keeper, "keeper"));
  }
  for (const backend of backends) {
    const zone = pinnedZone(backend);
    expect(backend.spec.template.metadata.labels["binring.dev/zone"]).toBe(zone);
    for (const pod of pods(backend, "backend")) {
      if (file.backends.includes(pod)) expect(file.zones?.[pod]).toBe(zone);
    }
  }

  // Membership at run time: every pod, past the seed too (a scale-up), asks the cluster file's keepers to add
  // it under its pod DNS name, which for a seed is the file's entry (a seed's request changes nothing; a
  // keeper's --advertise must equal it). Backends read the same file, join in their zone and hold the admin
  // certificate the join calls with; a keeper past the file's list takes its index from its name too.
  for (const [workload, name] of [
    ...backends.map((b) => [b, "backend"] as const),
    [keeper, "keeper"] as const,
  ]) {
    expect(clusterFileSource(workload, name), workload.metadata.name).toEqual(
      clusterFileSource(keeper, "keeper"),
    );
    for (let i = 0; i < workload.spec.replicas + 3; i++) {
      expect(podFlag(workload, name, i, "join"), `${workload.metadata.name}-${i}`).toBe("true");
      expect(podFlag(workload, name, i, "advertise")).toBe(podAddress(workload, name, i));
      expect(podFlag(workload, name, i, "zone")).toBe(name === "backend" ? pinnedZone(workload) : undefined);
    }
  }
  expect(podFlag(keeper, "keeper", 0, "index-from-hostname")).toBe("true");
  for (const address of [...file.backends, ...file.keepers]) {
    const workload = [...backends, keeper].find((w) => address.startsWith(`${w.metadata.name}-`))!;
    const ordinal = Number(/-(\d+)\./.exec(address)![1]);
    expect(podFlag(workload, workload === keeper ? "keeper" : "backend", ordinal, "advertise")).toBe(address);
  }

  // Mutual TLS on every backend and keeper (both listen on 0.0.0.0, which they refuse in plaintext), each
  // with only its role's certificate from one fixed path; the CA's key is in no pod. The keepers also
  // hold what the CLI run there needs: the admin certificate (status) and the cluster file's client one.
  const tlsDir = env(keeperContainer, "BINRING_TLS_DIR");
  for (const backend of backends) {
    expect(env(container(backend, "backend"), "BINRING_TLS_DIR")).toBe(tlsDir);
    expect(tlsFiles(backend, "backend")).toEqual([
      "ca.pem",
      "backend.pem",
      "backend-key.pem",
      "admin.pem",
      "admin-key.pem",
    ]);
  }
  expect(tlsFiles(keeper, "keeper")).toEqual([
    "ca.pem",
    "keeper.pem",
    "keeper-key.pem",
    "admin.pem",
    "admin-key.pem",
    "client.pem",
    "client-key.pem",
  ]);
  expect(file.tls).toEqual({
    ca: `${tlsDir}/ca.pem`,
    cert: `${tlsDir}/client.pem`,
    key: `${tlsDir}/client-key.pem`,
  });

  // Who may connect to what: deploy/README.md, Security.
  const namespace = keeper.metadata.namespace ?? "default";
  const callers: Record<string, Pod> = {
    keeper: { namespace, labels: keeper.spec.template.metadata.labels },
    client: { namespace: "shop", labels: { app: "shop", "binring.dev/client": "true" } },
    backend: { namespace, labels: backends[0]!.spec.template.metadata.labels },
    unlabelled: { namespace, labels: { app: "debug" } },
    prometheus: { namespace: "monitoring", labels: { "app.kubernetes.io/name": "prometheus" } },
  };
  const admitted = (workload: K8sObject, port: string) =>
    Object.keys(callers).filter((name) => admits(objects, workload, port, callers[name]!));
  for (const backend of backends) {
    expect(admitted(backend, "grpc")).toEqual(["keeper", "client"]);
    expect(admitted(backend, "http")).toEqual(["prometheus"]);
    expect(admitted(backend, "redis")).toEqual([]);
  }
  // A joining backend asks the keepers to add it; keepers beat each other and add joining keepers.
  expect(admitted(keeper, "grpc")).toEqual(["keeper", "client", "backend"]);
  expect(admitted(keeper, "http")).toEqual(["prometheus"]);

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

/** `binring cluster-file` as scale.sh runs it, naming the client certificate where pods mount it. */
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
    "--tls-dir",
    "/etc/binring-tls",
  ]);
  const file = JSON.parse(output.toString());
  expect(file.tls).toEqual({
    ca: "/etc/binring-tls/ca.pem",
    cert: "/etc/binring-tls/client.pem",
    key: "/etc/binring-tls/client-key.pem",
  });
  return file;
}

/**
 * What `binring status --json` prints (only the fields scale.sh reads matter): backends 0..backends-1 on the
 * ring, the keepers on the keeper ring and those leaving it.
 */
function statusJson(backends: number, keepers: number[], leaving: number[] = []): string {
  const keeperAddress = (i: number) => `keeper-${i}.keeper.binring.svc:7600`;
  const listed = [...keepers, ...leaving];
  return JSON.stringify({
    keeper: "keeper-0",
    address: keeperAddress(0),
    keepers: listed.map((i) => ({
      address: keeperAddress(i),
      self: i === 0,
      alive: true,
      cutOff: false,
      slice: [],
      working: [],
      leaving: leaving.includes(i),
    })),
    backends: Array.from({ length: backends }, (_, i) => ({
      address: `backend-${i}.backend.binring.svc:7000`,
      state: "ready",
      owner: keeperAddress(listed[i % listed.length]!),
      zone: "",
      leaving: false,
    })),
    repairs: [],
    completedRepairs: [],
    offRing: false,
  });
}

describe("deploy/k8s", () => {
  it("base: validates, and its parts agree (6 backends, 3 keepers, named in namespace default)", () => {
    const objects = renderKustomization(join(K8S, "base"));
    checkCluster(objects, ".default.svc");
    expect(find(objects, "StatefulSet", "backend").spec.replicas).toBe(6);
    expect(find(objects, "StatefulSet", "keeper").spec.replicas).toBe(3);
  });

  it("example overlay: validates, agrees, and its cluster file is what scale.sh --new generates", () => {
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

  it("scale.sh changes only the counts: up restarts nothing, down waits for remove-backend and remove-keeper", () => {
    const copy = mkdtempSync(join(tmpdir(), "binring-k8s-"));
    cpSync(K8S, copy, { recursive: true });
    const overlay = join(copy, "overlays/example");
    const status = join(copy, "status.json");
    /** scale.sh ARGS, with BINRING_STATUS (by default one that fails, as no cluster answers); its stderr. */
    const scale = (args: string[], statusCommand = "false") => {
      try {
        execFileSync("sh", [join(copy, "scale.sh"), ...args], {
          env: { ...process.env, BINRING: `${process.execPath} ${CLI_MAIN}`, BINRING_STATUS: statusCommand },
          stdio: "pipe",
        });
        return "";
      } catch (error) {
        return String((error as { stderr: Buffer }).stderr);
      }
    };
    const fromStatus = `cat ${status}`;
    const replicas = (dir: string, name: string) =>
      find(renderKustomization(dir), "StatefulSet", name).spec.replicas;
    const before = renderKustomization(overlay);
    const configMap = (objects: K8sObject[]) => objects.find((o) => o.kind === "ConfigMap")!;
    const template = (objects: K8sObject[], name: string) => find(objects, "StatefulSet", name).spec.template;

    // Up: new pods join by themselves. The seed file stays, so does its ConfigMap's name (a hash of it) that
    // every pod mounts: the pods already running keep their template and are not restarted.
    expect(scale([overlay, "9", "5"])).toBe("");
    const after = renderKustomization(overlay);
    checkCluster(after, ".binring.svc", false);
    expect(find(after, "StatefulSet", "backend").spec.replicas).toBe(9);
    expect(find(after, "StatefulSet", "keeper").spec.replicas).toBe(5);
    expect(configMap(after)).toEqual(configMap(before));
    expect(clusterFile(after)).toEqual(parseClusterConfig(generated(6, 3, "binring")));
    for (const name of ["backend", "keeper"]) expect(template(after, name)).toEqual(template(before, name));

    // No count below 1.
    expect(scale([overlay, "0"])).toMatch(/BACKENDS must be a positive integer, got "0"/);
    expect(scale([overlay, "9", "0"])).toMatch(
      /KEEPERS must be a positive integer, got "0": a cluster needs at least 1 keeper/,
    );
    expect([replicas(overlay, "backend"), replicas(overlay, "keeper")]).toEqual([9, 5]);

    // Backends down: refused while one to stop is still on the ring, or when the keepers cannot be asked.
    writeFileSync(status, statusJson(9, [0, 1, 2, 3, 4]));
    expect(scale([overlay, "6"], fromStatus)).toMatch(
      /refusing to scale down from 9: backend-6\.backend\.binring\.svc:7000 is still on the ring/,
    );
    expect(scale([overlay, "6"], "false")).toMatch(/refusing to scale down from 9: cannot ask the keepers/);
    expect(replicas(overlay, "backend")).toBe(9);
    writeFileSync(status, statusJson(6, [0, 1, 2, 3, 4]));
    expect(scale([overlay, "6"], fromStatus)).toBe("");
    expect(replicas(overlay, "backend")).toBe(6);

    // Keepers down: refused while one to stop is on the keeper ring or leaving it (remove-keeper --wait
    // returns once it is neither), or when the keepers cannot be asked; accepted once it is off.
    expect(scale([overlay, "6", "3"], fromStatus)).toMatch(
      /refusing to scale the keepers down from 5: keeper-3\.keeper\.binring\.svc:7600 is still on the keeper ring.*\n.*binring admin remove-keeper keeper-3\.keeper\.binring\.svc:7600 --wait/,
    );
    writeFileSync(status, statusJson(6, [0, 1, 2], [4]));
    expect(scale([overlay, "6", "3"], fromStatus)).toMatch(
      /refusing to scale the keepers down from 5: keeper-4\.keeper\.binring\.svc:7600 is still on the keeper ring/,
    );
    expect(scale([overlay, "6", "3"], "false")).toMatch(
      /refusing to scale the keepers down from 5: cannot ask the keepers/,
    );
    expect(scale([overlay, "6", "3"], "echo not-a-status")).toMatch(/printed no keeper status/);
    expect(replicas(overlay, "keeper")).toBe(5);
    writeFileSync(status, statusJson(6, [0, 1, 2]));
    expect(scale([overlay, "6", "3"], fromStatus)).toBe("");
    expect([replicas(overlay, "backend"), replicas(overlay, "keeper")]).toEqual([6, 3]);
    expect(configMap(renderKustomization(overlay))).toEqual(configMap(before));

    // A new cluster's seed: --new writes it from the counts, unless the keepers answer (a running cluster).
    expect(scale(["--new", overlay, "4", "2"], fromStatus)).toMatch(/refusing --new: the keepers .* answer/);
    expect(scale(["--new", overlay, "4", "2"])).toBe("");
    const fresh = renderKustomization(overlay);
    checkCluster(fresh, ".binring.svc");
    expect(clusterFile(fresh)).toEqual(parseClusterConfig(generated(4, 2, "binring")));
    rmSync(join(overlay, "binring.json"));
    expect(scale([overlay, "5"])).toMatch(
      /binring\.json is missing: write a new cluster's seed with scale\.sh --new/,
    );

    // Zoned: the number is backends per zone; the seed (with its zones) stays.
    const zones = join(copy, "overlays/zones");
    const zonesBefore = renderKustomization(zones);
    expect(scale([zones, "3"])).toBe("");
    const zoned = renderKustomization(zones);
    checkCluster(zoned, ".binring.svc", false);
    expect(workloads(zoned, "backend").map((b) => b.spec.replicas)).toEqual([3, 3, 3]);
    expect(find(zoned, "StatefulSet", "keeper").spec.replicas).toBe(3);
    expect(configMap(zoned)).toEqual(configMap(zonesBefore));
    for (const backend of workloads(zoned, "backend")) {
      expect(backend.spec.template).toEqual(template(zonesBefore, backend.metadata.name));
    }
  });
});
