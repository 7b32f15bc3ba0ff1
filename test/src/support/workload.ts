// A concurrent write workload that remembers every acknowledged write, and a
// check that reads them all back. Each worker owns its keys, so the last
// acknowledged set of a key is the value every later read must return.
import type { BinClient } from "@binring/client";
import { expect } from "vitest";

export interface WorkloadOptions {
  workers: number;
  bins: string[];
  keysPerWorker: number;
}

export class Workload {
  /** "bin\u0000key" -> last acknowledged value */
  readonly strings = new Map<string, string>();
  /** "bin\u0000key" -> acknowledged appended values */
  readonly lists = new Map<string, string[]>();
  readonly errors: unknown[] = [];
  operations = 0;
  #running = false;
  #workers: Promise<void>[] = [];

  constructor(
    private readonly client: BinClient,
    private readonly options: WorkloadOptions,
  ) {}

  start(): void {
    this.#running = true;
    this.#workers = Array.from({ length: this.options.workers }, (_, w) => this.#work(w));
  }

  async #work(worker: number): Promise<void> {
    let n = 0;
    while (this.#running) {
      n++;
      const bin = this.options.bins[(worker + n) % this.options.bins.length]!;
      const key = `w${worker}-k${n % this.options.keysPerWorker}`;
      const id = `${bin}\u0000${key}`;
      const value = `w${worker}-${n}`;
      try {
        if (n % 3 === 0) {
          await this.client.bin(bin).listAppend(key, value);
          this.lists.set(id, [...(this.lists.get(id) ?? []), value]);
        } else {
          await this.client.bin(bin).set(key, value);
          this.strings.set(id, value);
        }
        this.operations++;
      } catch (error) {
        this.errors.push(error);
      }
    }
  }

  /** Resolves once at least `count` more operations were acknowledged. */
  async waitForOperations(count: number, timeoutMs = 30_000): Promise<void> {
    const target = this.operations + count;
    const deadline = Date.now() + timeoutMs;
    while (this.operations < target) {
      if (Date.now() > deadline)
        throw new Error(`workload made ${this.operations}/${target} operations in time`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#workers);
  }

  /** Every acknowledged write reads back: last values of strings, every appended element in order. */
  async verify(reader: BinClient): Promise<void> {
    for (const [id, value] of this.strings) {
      const [bin, key] = id.split("\u0000") as [string, string];
      expect(await reader.bin(bin).get(key), `${bin}/${key}`).toBe(value);
    }
    for (const [id, values] of this.lists) {
      const [bin, key] = id.split("\u0000") as [string, string];
      expect(await reader.bin(bin).listGet(key), `${bin}/${key}`).toEqual(values);
    }
  }
}
