// Runs every call on several stores at once and insists they all answer the
// same, so one conformance suite checks many bins concurrently with exact
// counts. Clocks differ per bin by design: the first bin's is returned.
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
  listGet(key: string) {
    return this.#same((s) => s.listGet(key));
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
