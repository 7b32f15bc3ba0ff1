// The test-only sabotage is off unless asked for by name, and then changes exactly which replicas a write lists.
import { InvalidArgumentError } from "@binring/core";
import { expect, it } from "vitest";
import { parseSabotage, writeReplicas } from "../src/sabotage.js";

it("lists every replica for the coordinator, primary first, unless sabotaged", () => {
  expect(writeReplicas(["primary", "backup-1", "backup-2"], "primary", undefined)).toEqual([
    "primary",
    "backup-1",
    "backup-2",
  ]);
});

it("ack-after-primary lists the coordinator alone, so the write is applied there only", () => {
  expect(writeReplicas(["primary", "backup-1", "backup-2"], "primary", "ack-after-primary")).toEqual([
    "primary",
  ]);
});

it("accepts only a known sabotage, by name", () => {
  expect(parseSabotage(undefined)).toBeUndefined();
  expect(parseSabotage("ack-after-primary")).toBe("ack-after-primary");
  expect(() => parseSabotage("lose-everything")).toThrow(InvalidArgumentError);
  expect(() => parseSabotage(true)).toThrow(
    /unsafeSabotage must be one of ack-after-primary \(test only\), got true/,
  );
});
