// The Storage contract served in-process by a BackendNode (bin ""), for
// embedding a store without gRPC and for the conformance suite.
import type { KeyPattern, Storage } from "@binring/core";
import type { CallTarget } from "./backend-calls.js";
import type { BackendNode } from "./backend-node.js";

const LOCAL: CallTarget = { bin: "", epoch: 0n, requireReady: false };

export class LocalStorage implements Storage {
  constructor(private readonly node: BackendNode) {}

  async get(key: string): Promise<string | null> {
    const stored = await this.node.get(LOCAL, key);
    return stored && stored.value !== "" ? stored.value : null;
  }

  async set(key: string, value: string): Promise<true> {
    await this.node.write(LOCAL, { kind: "set", key, value });
    return true;
  }

  keys(pattern: KeyPattern = {}): Promise<string[]> {
    return this.node.keys(LOCAL, pattern);
  }

  listGet(key: string): Promise<string[]> {
    return this.node.listGet(LOCAL, key);
  }

  async listAppend(key: string, value: string): Promise<true> {
    await this.node.write(LOCAL, { kind: "append", key, value });
    return true;
  }

  async listRemove(key: string, value: string): Promise<number> {
    return (await this.node.write(LOCAL, { kind: "remove", key, value })).removed;
  }

  listKeys(pattern: KeyPattern = {}): Promise<string[]> {
    return this.node.listKeys(LOCAL, pattern);
  }

  clock(atLeast = 0n): Promise<bigint> {
    return this.node.tick(LOCAL, atLeast);
  }
}
