// The test-only sabotage is off unless asked for by name, and then changes exactly the write order.
import { InvalidArgumentError } from "@binring/core";
import { expect, it } from "vitest";
import { parseSabotage, writeOrder } from "../src/sabotage.js";

it("applies writes to every replica, last backup first, unless sabotaged", () => {
  expect(writeOrder(["primary", "backup-1", "backup-2"], undefined)).toEqual([
    "backup-2",
    "backup-1",
    "primary",
  ]);
});

it("ack-after-primary applies a write to the primary only", () => {
  expect(writeOrder(["primary", "backup-1", "backup-2"], "ack-after-primary")).toEqual(["primary"]);
});

it("accepts only a known sabotage, by name", () => {
  expect(parseSabotage(undefined)).toBeUndefined();
  expect(parseSabotage("ack-after-primary")).toBe("ack-after-primary");
  expect(() => parseSabotage("lose-everything")).toThrow(InvalidArgumentError);
  expect(() => parseSabotage(true)).toThrow(
    /unsafeSabotage must be one of ack-after-primary \(test only\), got true/,
  );
});
