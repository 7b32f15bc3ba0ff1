// The Storage contract as one suite, run against every implementation: the
// memory and Redis engines in-process, StorageClient over gRPC to a backend
// process, and (in the SDK issue) bins of a cluster.
import type { Storage } from "@binring/core";
import { beforeEach, describe, expect, it } from "vitest";

export interface StorageFixture {
  /** A client on the same store as every other client of this fixture. */
  open(): Storage;
  /**
   * Other work ticks the same clocks meanwhile (bins sharing backends): clock
   * checks are then about order, not exact values. @default false
   */
  sharedClock?: boolean;
}

/** A fresh, empty store per test, reachable through as many clients as the test opens. */
export type FixtureFactory = () => Promise<StorageFixture>;

const ODD_STRINGS = [
  "",
  ":",
  "|",
  "a|;b",
  "line\nbreak",
  "tab\there",
  "ünïcödé",
  "日本語",
  "🦄",
  "\u0000nul",
  " ",
];

export function describeStorageConformance(name: string, factory: FixtureFactory): void {
  describe(`Storage conformance: ${name}`, () => {
    let fixture: StorageFixture;
    let store: Storage;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.open();
    });

    it("get returns null for an unset key and the value after set", async () => {
      expect(await store.get("missing")).toBeNull();
      expect(await store.set("k", "v")).toBe(true);
      expect(await store.get("k")).toBe("v");
      await store.set("k", "v2");
      expect(await store.get("k")).toBe("v2");
    });

    it('set(key, "") deletes the key', async () => {
      await store.set("k", "v");
      expect(await store.set("k", "")).toBe(true);
      expect(await store.get("k")).toBeNull();
      expect(await store.keys()).toEqual([]);
    });

    it("keys filters by prefix and suffix, which may overlap or be empty", async () => {
      for (const key of ["apple", "apricot", "banana", "ape", "a", "pa"]) await store.set(key, "x");
      await store.set("deleted-a", "x");
      await store.set("deleted-a", "");
      expect(await store.keys()).toEqual(["a", "ape", "apple", "apricot", "banana", "pa"]);
      expect(await store.keys({ prefix: "ap" })).toEqual(["ape", "apple", "apricot"]);
      expect(await store.keys({ suffix: "e" })).toEqual(["ape", "apple"]);
      expect(await store.keys({ prefix: "a", suffix: "a" })).toEqual(["a"]);
      expect(await store.keys({ prefix: "ape", suffix: "pe" })).toEqual(["ape"]);
      expect(await store.keys({ prefix: "zzz" })).toEqual([]);
    });

    it("listGet is [] when unset and keeps append order with duplicates", async () => {
      expect(await store.listGet("l")).toEqual([]);
      for (const value of ["a", "b", "a", "c"]) expect(await store.listAppend("l", value)).toBe(true);
      expect(await store.listGet("l")).toEqual(["a", "b", "a", "c"]);
    });

    it("listRemove removes every occurrence and returns how many", async () => {
      for (const value of ["a", "b", "a", "c", "a"]) await store.listAppend("l", value);
      expect(await store.listRemove("l", "a")).toBe(3);
      expect(await store.listGet("l")).toEqual(["b", "c"]);
      expect(await store.listRemove("l", "a")).toBe(0);
      expect(await store.listRemove("missing", "a")).toBe(0);
      await store.listAppend("l", "a");
      expect(await store.listGet("l")).toEqual(["b", "c", "a"]);
    });

    it("an emptied list disappears from listKeys; strings and lists are separate namespaces", async () => {
      await store.listAppend("both", "x");
      await store.set("both", "string");
      await store.listAppend("other", "y");
      expect(await store.listKeys()).toEqual(["both", "other"]);
      expect(await store.keys()).toEqual(["both"]);
      expect(await store.get("both")).toBe("string");
      expect(await store.listGet("both")).toEqual(["x"]);
      expect(await store.listRemove("other", "y")).toBe(1);
      expect(await store.listKeys()).toEqual(["both"]);
      expect(await store.listKeys({ prefix: "b", suffix: "h" })).toEqual(["both"]);
      await store.set("both", "");
      expect(await store.listGet("both")).toEqual(["x"]);
    });

    it("clock follows the exact sequence 2999, 3000, 3001 (from where it stands)", async () => {
      const current = await store.clock();
      const base = current < 2999n ? 2999n : current + 1n;
      const sequence = [await store.clock(base), await store.clock(0n), await store.clock(base)];
      if (fixture.sharedClock) {
        expect(sequence[0]! >= base && sequence[1]! > sequence[0]! && sequence[2]! > sequence[1]!).toBe(true);
      } else {
        expect(sequence).toEqual([base, base + 1n, base + 2n]);
      }
    });

    it("keys, values and patterns may hold any Unicode, separators and the empty key", async () => {
      for (const [i, key] of ODD_STRINGS.entries()) {
        await store.set(key, `value ${ODD_STRINGS[(i + 1) % ODD_STRINGS.length]}`);
        await store.listAppend(key, ODD_STRINGS[(i + 2) % ODD_STRINGS.length]!);
      }
      for (const [i, key] of ODD_STRINGS.entries()) {
        expect(await store.get(key)).toBe(`value ${ODD_STRINGS[(i + 1) % ODD_STRINGS.length]}`);
        expect(await store.listGet(key)).toEqual([ODD_STRINGS[(i + 2) % ODD_STRINGS.length]]);
      }
      expect(await store.keys()).toEqual([...ODD_STRINGS].sort());
      expect(await store.listKeys({ prefix: "日" })).toEqual(["日本語"]);
      expect(await store.keys({ prefix: "a|", suffix: ";b" })).toEqual(["a|;b"]);
      expect(
        await store.listRemove("🦄", ODD_STRINGS[(ODD_STRINGS.indexOf("🦄") + 2) % ODD_STRINGS.length]!),
      ).toBe(1);
    });

    it("50 concurrent appends from 5 clients are all present", async () => {
      const clients = Array.from({ length: 5 }, () => fixture.open());
      await Promise.all(
        clients.flatMap((client, c) =>
          Array.from({ length: 10 }, (_, i) => client.listAppend("shared", `c${c}-${i}`)),
        ),
      );
      const list = await store.listGet("shared");
      expect(list).toHaveLength(50);
      expect(new Set(list).size).toBe(50);
      for (const client of clients) expect(await client.listGet("shared")).toEqual(list);
    });

    it("1000 concurrent clock() calls are distinct, contiguous, and below any later call", async () => {
      const seen: bigint[] = [];
      await Promise.all(
        Array.from({ length: 1000 }, async () => {
          seen.push(await store.clock());
        }),
      );
      expect(new Set(seen).size).toBe(1000);
      const sorted = [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      if (!fixture.sharedClock) expect(sorted[999]! - sorted[0]!).toBe(999n);
      const after = await store.clock();
      expect(after > sorted[999]!).toBe(true);
    });
  });
}
