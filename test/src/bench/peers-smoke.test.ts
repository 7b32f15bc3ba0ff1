// The peers benchmark's systems keep working, in a few seconds: a redis-server
// master whose two replicas acknowledge every write (WAIT 2), and, where etcd
// is installed, a 3-member etcd cluster, each written and read through the
// client the benchmark drives. The full benchmark (with binring) is
// `npm run bench -- peers`.
import { afterAll, expect, test } from "vitest";
import { EtcdCluster, hasEtcd } from "./etcd-cluster.js";
import { REPLICAS, RedisReplicas } from "./redis-replicas.js";
import { connect, type SystemSpec } from "./systems.js";

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops) await stop();
});

async function writesAndReads(spec: SystemSpec): Promise<void> {
  const client = connect(spec);
  stops.push(() => client.close());
  await Promise.all(Array.from({ length: 20 }, (_, i) => client.set(`key${i}`, `value${i}`)));
  expect(await Promise.all(Array.from({ length: 20 }, (_, i) => client.get(`key${i}`)))).toEqual(
    Array.from({ length: 20 }, (_, i) => `value${i}`),
  );
}

test("redis master + 2 replicas: every SET acknowledged by WAIT 2", { timeout: 30_000 }, async () => {
  const replicas = await RedisReplicas.start();
  stops.push(() => replicas.destroy());
  await writesAndReads({
    kind: "redis-replicas",
    name: "replicas",
    url: replicas.master.url,
    replicas: REPLICAS,
  });
});

test.skipIf(!hasEtcd())("etcd × 3 through the etcd3 client", { timeout: 60_000 }, async () => {
  const etcd = await EtcdCluster.start({ noFsync: true });
  stops.push(() => etcd.destroy());
  await writesAndReads({ kind: "etcd", name: "etcd", endpoints: etcd.endpoints });
});
