// Runs every call on several stores at once and insists they all answer the
// same, so one conformance suite checks many bins concurrently with exact
// counts. Clocks differ per bin by design: the first bin's is returned; so may
// the order of concurrent appends (see listGet).
import type { KeyPattern, Storage } from "@binring/core";
import { expect } from "vitest";

export class FanOutStorage implements Storage {
  constructor(private readonly stores: readonly Storage[]) {}

  async #same<T>(call: (store: Storage) => Promise<T>): Promise<T> {
    const results = await Promise.all(this.stores.map(call));
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
    return results[0]!;
  }

  get(key: string) {
    return this.#same((s) => s.get(key));
  }
  set(key: string, value: string) {
    return this.#same((s) => s.set(key, value));
  }
  keys(pattern?: KeyPattern) {
    return this.#same((s) => s.keys(pattern));
  }
  // Concurrent appends may settle in a different order in each bin (each bin
  // orders its own by stamp): bins must hold the same values, and the order
  // every reader agrees on is checked on the first bin.
  async listGet(key: string) {
    const lists = await Promise.all(this.stores.map((s) => s.listGet(key)));
    const sorted = (list: string[]) => [...list].sort();
    for (const list of lists.slice(1)) expect(sorted(list)).toEqual(sorted(lists[0]!));
    return lists[0]!;
  }
  listAppend(key: string, value: string) {
    return this.#same((s) => s.listAppend(key, value));
  }
  listRemove(key: string, value: string) {
    return this.#same((s) => s.listRemove(key, value));
  }
  listKeys(pattern?: KeyPattern) {
    return this.#same((s) => s.listKeys(pattern));
  }
  async clock(atLeast?: bigint) {
    const clocks = await Promise.all(this.stores.map((s) => s.clock(atLeast)));
    return clocks[0]!;
  }
}
