// The image's entry point without Docker: the exact commands and environment
// the Kubernetes manifests give their containers (Redis's too), run as child
// processes of `node packages/cli/dist/main.js` (what the ENTRYPOINT runs under
// tini). Only what is cluster-specific is mapped to this machine: ports to free
// ones, the data directory and the cluster file to temporary ones, Secrets to
// values made here (certificates by `binring certs`, laid out as the kubelet
// lays out a secret volume, so a renewal swaps them the way it does), the
// pod's name and namespace (downward API) to those of a pod of the overlay,
// and the addresses the pods advertise to ones reachable here. The keeper runs
// with hostname keeper-1 (a UTS namespace), as a StatefulSet pod would, and
// takes its index from it; the backend joins the ring through it.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ChildProcess,
  CLI_MAIN,
  freePort,
  keeperStatus,
  REPO_ROOT,
  runCli,
  servedSerial,
  waitFor,
} from "../support/index.js";
import { type K8sObject, podSpec, renderKustomization } from "./kustomize.js";

interface Container {
  args: string[];
  env: {
    name: string;
    value?: string;
    valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
  }[];
  volumeMounts: { name: string; mountPath: string }[];
  readinessProbe: { httpGet?: { path: string } };
}

const objects = renderKustomization(join(REPO_ROOT, "deploy/k8s/overlays/example"));
const workloadOf = (name: string) =>
  objects.find((o) => o.kind === "StatefulSet" && o.metadata.name === name)!;
const containerOf = (workload: K8sObject, name: string): Container =>
  podSpec(workload).containers.find((c: { name: string }) => c.name === name);
const shippedClusterFile = JSON.parse(
  Object.values(objects.find((o) => o.kind === "ConfigMap")!.data as Record<string, string>)[0]!,
);

/** Kubernetes' $(NAME) expansion, from the variables defined so far. */
const expand = (text: string, env: Record<string, string>) =>
  text.replace(/\$\((\w+)\)/g, (whole, name: string) => env[name] ?? whole);

/** The pod a container runs in, as the downward API gives it. */
interface Pod {
  name: string;
  namespace: string;
}

/**
 * The container's environment as the kubelet makes it in `pod` (values expanded,
 * Secret keys from `secrets`, "SECRET/KEY", the pod's name and namespace from
 * fieldRefs), then the names in `map` mapped to this machine.
 */
function environment(
  container: Container,
  secrets: Record<string, string>,
  map: Record<string, string | ((value: string) => string)>,
  pod?: Pod,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { name, value, valueFrom } of container.env) {
    const ref = valueFrom?.secretKeyRef;
    const field = valueFrom?.fieldRef?.fieldPath;
    if (field !== undefined) {
      const fields: Record<string, string | undefined> = {
        "metadata.name": pod?.name,
        "metadata.namespace": pod?.namespace,
      };
      if (fields[field] === undefined) throw new Error(`${name}: fieldRef ${field} needs the pod here`);
      env[name] = fields[field]!;
    } else env[name] = ref ? secrets[`${ref.name}/${ref.key}`]! : expand(value!, env);
  }
  for (const [name, value] of Object.entries(map)) {
    expect(env, `the manifest sets ${name}`).toHaveProperty(name);
    env[name] = typeof value === "function" ? value(env[name]!) : value;
  }
  return env;
}

/**
 * The container's mount of Secret binring-tls, as the kubelet writes a secret
 * volume: the items in a timestamped directory, `..data` linking to it, each
 * file a link through `..data`. update() writes them anew and swaps `..data`.
 */
function secretVolume(workload: K8sObject, container: Container, source: string, dir: string) {
  const tlsDir = container.env.find((e) => e.name === "BINRING_TLS_DIR")!.value!;
  const mount = container.volumeMounts.find((m) => m.mountPath === tlsDir)!;
  const { secret } = podSpec(workload).volumes.find((v: { name: string }) => v.name === mount.name);
  const items: { key: string; path: string }[] = secret.items;
  mkdirSync(dir);
  let version = 0;
  const update = () => {
    const data = `..${++version}`;
    mkdirSync(join(dir, data));
    for (const { key, path } of items) copyFileSync(join(source, key), join(dir, data, path));
    symlinkSync(data, join(dir, "..data_tmp"));
    renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
  };
  update();
  for (const { path } of items) symlinkSync(join("..data", path), join(dir, path));
  return { mountPath: tlsDir, dir, update };
}

/** Redis's first reply to PING from a connection that did not authenticate. */
function unauthenticatedPing(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write("PING\r\n"));
    socket.once("data", (reply) => {
      resolve(reply.toString());
      socket.destroy();
    });
    socket.once("error", reject);
  });
}

const started: { stop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const process_ of started.reverse()) await process_.stop();
});

describe("the image's entry point, run as the manifests run it", () => {
  it("starts Redis with its password, a backend and a keeper over mutual TLS, and renews the certificates in place", async () => {
    const work = mkdtempSync(join(tmpdir(), "binring-entrypoint-"));
    started.push({ stop: async () => rmSync(work, { recursive: true, force: true }) });
    const certs = join(work, "certs");
    expect((await runCli(["certs", "--dir", certs])).code).toBe(0);
    const secrets = { "binring-redis/password": "s3cret-for-the-test" };

    // Redis, from the redis container's arguments: it wants the password.
    const backendWorkload = workloadOf("backend");
    const redisContainer = containerOf(backendWorkload, "redis");
    const redisEnv = environment(redisContainer, secrets, {});
    const redisPort = await freePort();
    const redisArgs = redisContainer.args.map((arg) => expand(arg, redisEnv));
    redisArgs[redisArgs.indexOf("--port") + 1] = String(redisPort);
    redisArgs[redisArgs.indexOf("--dir") + 1] = join(work, "redis");
    mkdirSync(join(work, "redis"));
    const redis = await ChildProcess.spawn("redis", redisArgs[0]!, redisArgs.slice(1), {
      env: redisEnv,
      readyLine: /Ready to accept connections/,
    });
    started.push({ stop: () => redis.child.kill("SIGTERM") });
    expect(await unauthenticatedPing(redisPort)).toMatch(/^-NOAUTH/);

    // The backend: 0.0.0.0 as shipped, which it serves only with TLS. It joins the ring (--join) through the
    // keepers of its cluster file, here the keeper started below, under the name it advertises: pod
    // backend-0's in the overlay's namespace, which the shipped file lists, mapped to its address here.
    const backendContainer = containerOf(backendWorkload, "backend");
    const backendTls = secretVolume(backendWorkload, backendContainer, certs, join(work, "backend-tls"));
    const [backendPort, backendHttpPort] = [await freePort(), await freePort()];
    const [keeperPort, httpPort] = [await freePort(), await freePort()];
    const backendAddress = `127.0.0.1:${backendPort}`;
    const joinFile = join(work, "backend-binring.json");
    writeFileSync(
      joinFile,
      JSON.stringify({ backends: [backendAddress], keepers: [`127.0.0.1:${keeperPort}`] }),
    );
    const namespace = backendWorkload.metadata.namespace!;
    const backendEnv = environment(
      backendContainer,
      secrets,
      {
        BINRING_LISTEN: (listen) => listen.replace(/:\d+$/, `:${backendPort}`),
        BINRING_HTTP: `127.0.0.1:${backendHttpPort}`,
        BINRING_REDIS: (url) => url.replace(/:6379$/, `:${redisPort}`),
        BINRING_TLS_DIR: backendTls.dir,
        BINRING_CONFIG: joinFile,
        BINRING_ADVERTISE: (advertised) => {
          expect(advertised).toBe(shippedClusterFile.backends[0]);
          return backendAddress;
        },
      },
      { name: "backend-0", namespace },
    );
    expect(backendEnv.BINRING_JOIN).toBe("true");
    expect(backendEnv.BINRING_LISTEN).toBe(`0.0.0.0:${backendPort}`);
    expect(backendEnv.BINRING_REDIS).toBe(
      `redis://:${secrets["binring-redis/password"]}@127.0.0.1:${redisPort}`,
    );
    const { BINRING_TLS_DIR: _, ...plaintext } = backendEnv;
    const refused = await runCli(backendContainer.args, { env: plaintext });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("refusing to serve 0.0.0.0");
    const backend = await ChildProcess.spawn(
      "backend",
      process.execPath,
      [CLI_MAIN, ...backendContainer.args],
      {
        env: backendEnv,
        readyLine: /"msg":"backend listening"/,
        timeoutMs: 20_000,
      },
    );
    started.push({ stop: () => backend.child.kill("SIGTERM") });
    // What the manifest's scrape annotations point Prometheus at.
    expect((await fetch(`http://127.0.0.1:${backendHttpPort}/metrics`)).status).toBe(200);

    // The keeper: as in Kubernetes, the cluster file names keepers by DNS (here unresolvable) and the
    // client certificate at the mount path; keeper 1 binds --listen.
    const keeperWorkload = workloadOf("keeper");
    const keeperContainer = containerOf(keeperWorkload, "keeper");
    const keeperTls = secretVolume(keeperWorkload, keeperContainer, certs, join(work, "keeper-tls"));
    const tls = Object.fromEntries(
      Object.entries(shippedClusterFile.tls as Record<string, string>).map(([field, path]) => [
        field,
        path.replace(keeperTls.mountPath, keeperTls.dir),
      ]),
    ) as { ca: string; cert: string; key: string };
    const configPath = join(work, "binring.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        backends: [backendAddress],
        keepers: ["keeper-0.keeper.invalid:7600", "keeper-1.keeper.invalid:7600"],
        tls,
      }),
    );
    const keeperEnv = environment(
      keeperContainer,
      secrets,
      {
        BINRING_CONFIG: configPath,
        BINRING_LISTEN: (listen) => listen.replace(/:\d+$/, `:${keeperPort}`),
        BINRING_HTTP: `127.0.0.1:${httpPort}`,
        BINRING_TLS_DIR: keeperTls.dir,
        // Pod keeper-1 advertises the name the shipped file gives it; the file here names it .invalid.
        BINRING_ADVERTISE: (advertised) => {
          expect(advertised).toBe(shippedClusterFile.keepers[1]);
          return "keeper-1.keeper.invalid:7600";
        },
      },
      { name: "keeper-1", namespace },
    );
    expect(keeperEnv.BINRING_JOIN).toBe("true");
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
      { env: keeperEnv, readyLine: /"msg":"keeper listening"/, timeoutMs: 20_000 },
    );
    started.push({ stop: () => keeper.child.kill("SIGTERM") });
    expect(keeper.child.output()).toContain(`"address":"0.0.0.0:${keeperPort}"`);

    // The probe path of the manifest answers, and names keeper 1.
    const health = await fetch(`http://127.0.0.1:${httpPort}${keeperContainer.readinessProbe.httpGet!.path}`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, keeper: "keeper-1" });

    // The backend's join reaches the keeper with the admin certificate of its volume (it is a seed of the
    // keeper's file, so nothing changes); the keeper reaches the backend with its certificate, makes it ready.
    await backend.child.waitForLine(/"msg":"joined the ring"/, 20_000);
    await waitFor(
      "the keeper to report the backend ready",
      async () => (await keeperStatus(`127.0.0.1:${httpPort}`)).backends.find((b) => b.state === "ready"),
      { timeoutMs: 20_000 },
    );

    // The CLI as `kubectl exec` runs it in the keeper pod: data commands with the cluster file's client
    // certificate, status with the admin one in BINRING_TLS_DIR. Without a certificate, nothing.
    const clientFile = join(work, "client.json");
    const reachable = { backends: [backendAddress], keepers: [`127.0.0.1:${keeperPort}`] };
    writeFileSync(clientFile, JSON.stringify({ ...reachable, tls }));
    const inKeeperPod = { ...keeperEnv, BINRING_CONFIG: clientFile };
    expect((await runCli(["set", "--bin", "deploy", "greeting", "hello"], { env: inKeeperPod })).stdout).toBe(
      "OK\n",
    );
    expect((await runCli(["get", "--bin", "deploy", "greeting"], { env: inKeeperPod })).stdout).toBe(
      "hello\n",
    );
    const status = await runCli(["status", "--json"], { env: inKeeperPod });
    expect(status.code, status.stderr).toBe(0);
    const plaintextFile = join(work, "plaintext.json");
    writeFileSync(plaintextFile, JSON.stringify({ ...reachable, callTimeoutMs: 1000 }));
    expect((await runCli(["get", "--bin", "deploy", "greeting", "--config", plaintextFile])).code).not.toBe(
      0,
    );

    // Renewal: `binring certs` on the same directory, the Secret recreated from it, the kubelet swapping
    // the volume's files. New connections get the new certificate within seconds; the data stays.
    const clientCert = {
      ca: join(certs, "ca.pem"),
      cert: join(certs, "client.pem"),
      key: join(certs, "client-key.pem"),
    };
    const before = await servedSerial(`127.0.0.1:${backendPort}`, clientCert);
    expect((await runCli(["certs", "--dir", certs])).code).toBe(0);
    backendTls.update();
    await waitFor(
      "the backend to serve its renewed certificate",
      async () => (await servedSerial(`127.0.0.1:${backendPort}`, clientCert)) !== before,
      { timeoutMs: 5000, intervalMs: 200 },
    );
    expect((await runCli(["get", "--bin", "deploy", "greeting"], { env: inKeeperPod })).stdout).toBe(
      "hello\n",
    );
  });
});
