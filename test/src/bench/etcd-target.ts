// etcd as a load target, through the `etcd3` npm client: one unary gRPC call
// per operation, to a member the client picks. Puts are acknowledged once a
// majority of members logged them; gets are etcd's default, linearizable
// reads (the member confirms with the leader before it answers).
import type { LoadTarget } from "@binring/load";
import { Etcd3 } from "etcd3";

export function etcdTarget(endpoints: string[]): LoadTarget & { close(): Promise<void> } {
  const client = new Etcd3({ hosts: endpoints });
  return {
    set: (key, value) => client.put(`${key}:k`).value(value).exec(),
    get: (key) => client.get(`${key}:k`).string(),
    listAppend: () =>
      Promise.reject(new Error("etcd has no lists: the peers benchmark runs set and get only")),
    close: async () => {
      client.close();
    },
  };
}
