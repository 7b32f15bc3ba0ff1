// Bins never see each other's keys, whatever their names and keys contain.
import { BinClient } from "@binring/client";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LocalCluster } from "../support/index.js";

let cluster: LocalCluster;
let client: BinClient;

beforeAll(async () => {
  cluster = await LocalCluster.start({ backends: 3 });
  client = new BinClient({ backends: cluster.addresses });
});
afterAll(async () => {
  await client.close();
  await cluster.stop();
});

it("the same key in 1000 bins reads back each bin's own value", async () => {
  const names = Array.from({ length: 1000 }, (_, i) => `tenant-${i}`);
  await Promise.all(names.map((name) => client.bin(name).set("shared", `value of ${name}`)));
  await Promise.all(names.map((name) => client.bin(name).listAppend("shared", name)));
  const values = await Promise.all(names.map((name) => client.bin(name).get("shared")));
  expect(values).toEqual(names.map((name) => `value of ${name}`));
  const lists = await Promise.all(names.map((name) => client.bin(name).listGet("shared")));
  expect(lists).toEqual(names.map((name) => [name]));
  const keys = await Promise.all(names.map((name) => client.bin(name).keys()));
  expect(keys.every((k) => k.length === 1 && k[0] === "shared")).toBe(true);
});

const LONG = "ß".repeat(2048); // 4 KiB in UTF-8
const ADVERSARIAL: [bin: string, key: string][] = [
  ["a", "b::c"],
  ["a::b", "c"],
  ["a|", ":b"],
  ["a", "|:b"],
  ["", "a"],
  ["a", ""],
  ["", ""],
  ["|", ""],
  ["", "|"],
  ["a|;b", "c"],
  ["a", "|;bc"],
  ["1:a", "b"],
  ["1", ":ab"],
  ["日本", "語"],
  ["日", "本語"],
  [LONG, "k"],
  [`${LONG.slice(1)}`, "ßk"],
];

it("adversarial (bin, key) pairs never share a stored key", async () => {
  for (const [i, [bin, key]] of ADVERSARIAL.entries()) {
    await client.bin(bin).set(key, `v${i}`);
    await client.bin(bin).listAppend(key, `e${i}`);
  }
  for (const [i, [bin, key]] of ADVERSARIAL.entries()) {
    expect(await client.bin(bin).get(key), `bin ${JSON.stringify(bin)} key ${JSON.stringify(key)}`).toBe(
      `v${i}`,
    );
    expect(await client.bin(bin).listGet(key)).toEqual([`e${i}`]);
  }
  expect(await client.bin("a").keys()).toEqual(["", "b::c", "|:b", "|;bc"].sort());
  expect(await client.bin("a::b").keys()).toEqual(["c"]);
  expect(await client.bin("").listKeys()).toEqual(["", "a", "|"]);
});
