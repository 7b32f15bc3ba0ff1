// What a test expects the cluster to hold: strings and lists per bin, updated
// as the test writes, and checked against reads.
import type { BinClient } from "@binring/client";
import { expect } from "vitest";

export class ExpectedData {
  readonly strings = new Map<string, Map<string, string>>();
  readonly lists = new Map<string, Map<string, string[]>>();

  async set(client: BinClient, bin: string, key: string, value: string): Promise<void> {
    await client.bin(bin).set(key, value);
    const strings = this.strings.get(bin) ?? new Map<string, string>();
    if (value === "") strings.delete(key);
    else strings.set(key, value);
    this.strings.set(bin, strings);
  }

  async append(client: BinClient, bin: string, key: string, value: string): Promise<void> {
    await client.bin(bin).listAppend(key, value);
    const lists = this.lists.get(bin) ?? new Map<string, string[]>();
    lists.set(key, [...(lists.get(key) ?? []), value]);
    this.lists.set(bin, lists);
  }

  async remove(client: BinClient, bin: string, key: string, value: string): Promise<void> {
    const list = this.lists.get(bin)?.get(key) ?? [];
    const expected = list.filter((v) => v === value).length;
    expect(await client.bin(bin).listRemove(key, value)).toBe(expected);
    this.lists.get(bin)?.set(
      key,
      list.filter((v) => v !== value),
    );
  }

  /** Writes a mix of strings, appends, removes and deletions into `bins`, tagged by round. */
  async writeRound(client: BinClient, bins: string[], round: number): Promise<void> {
    for (const bin of bins) {
      await this.set(client, bin, `key-${round}`, `${bin}/${round}`);
      await this.set(client, bin, "shared", `${bin}/latest-${round}`);
      await this.append(client, bin, "list", `a${round}`);
      await this.append(client, bin, "list", `b${round}`);
      await this.append(client, bin, "list", `a${round}`);
      await this.remove(client, bin, "list", `a${round}`);
      await this.set(client, bin, `doomed-${round}`, "x");
      await this.set(client, bin, `doomed-${round}`, "");
    }
  }

  /** Every expected value and list (order included) reads back, and nothing else is there. */
  async check(client: BinClient): Promise<void> {
    for (const [bin, strings] of this.strings) {
      for (const [key, value] of strings) expect(await client.bin(bin).get(key), `${bin}/${key}`).toBe(value);
      expect(await client.bin(bin).keys()).toEqual([...strings.keys()].sort());
    }
    for (const [bin, lists] of this.lists) {
      for (const [key, values] of lists)
        expect(await client.bin(bin).listGet(key), `${bin}/${key}`).toEqual(values);
    }
  }
}
