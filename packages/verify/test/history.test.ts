import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HistoryFormatError, parseHistory, readHistory } from "../src/history.js";

const lines = [
  '{"type":"meta","seed":42,"started":"2026-11-23T01:00:00Z","config":{"backends":6},"processes":16}',
  '{"type":"op","id":17,"process":3,"op":"set","bin":"b1","key":"k2","value":"p3-17","invoke":1203.5,"complete":1207.9,"status":"ok","result":true}',
  '{"type":"op","id":18,"process":3,"op":"get","bin":"b1","key":"k2","invoke":1208,"complete":1209,"status":"ok","result":null}',
  '{"type":"op","id":19,"process":4,"op":"listGet","bin":"b1","key":"l1","invoke":1,"complete":2,"status":"ok","result":["p1-3"]}',
  '{"type":"op","id":20,"process":4,"op":"listRemove","bin":"b1","key":"l1","value":"p1-3","invoke":3,"complete":4,"status":"ok","result":1}',
  '{"type":"op","id":21,"process":5,"op":"clock","bin":"b1","atLeast":"12","invoke":5,"complete":3005,"status":"unknown","error":"deadline exceeded"}',
  "",
  '{"type":"fault","time":5001.2,"action":"kill-backend","target":"backend-2","detail":"with its redis"}',
  '{"type":"final","bin":"b1","key":"k2","kind":"string","value":"p3-17"}',
  '{"type":"final","bin":"b1","key":"l1","kind":"list","value":["p1-3","p2-9"]}',
];

describe("history parser", () => {
  it("reads every kind of line, from memory and streamed from a file", async () => {
    const history = parseHistory(lines.join("\n"));
    expect(history.meta).toEqual({
      seed: 42,
      started: "2026-11-23T01:00:00Z",
      config: { backends: 6 },
      processes: 16,
    });
    expect(history.ops).toHaveLength(5);
    expect(history.ops[0]).toEqual({
      id: 17,
      process: 3,
      op: "set",
      bin: "b1",
      key: "k2",
      value: "p3-17",
      invoke: 1203.5,
      complete: 1207.9,
      status: "ok",
      result: true,
    });
    expect(history.ops[4]).toMatchObject({
      op: "clock",
      atLeast: "12",
      status: "unknown",
      error: "deadline exceeded",
    });
    expect(history.ops[4]!.key).toBeUndefined();
    expect(history.faults).toEqual([
      { time: 5001.2, action: "kill-backend", target: "backend-2", detail: "with its redis" },
    ]);
    expect(history.finals.map((f) => f.value)).toEqual(["p3-17", ["p1-3", "p2-9"]]);
    const path = join(mkdtempSync(join(tmpdir(), "verify-")), "history.jsonl");
    writeFileSync(path, `${lines.join("\r\n")}\n`);
    expect(await readHistory(path)).toEqual(history);
  });

  it.each([
    ["{not json", /^history line 2: is not JSON/],
    ["[1,2]", /^history line 2: must be a JSON object/],
    ['{"type":"opp"}', /^history line 2: "type" must be "meta", "op", "fault" or "final", got "opp"/],
    [lines[1]!.replace('"op":"set"', '"op":"put"'), /^history line 2: "op" must be one of set, get/],
    [
      lines[1]!.replace('"complete":1207.9', '"complete":1000'),
      /"complete" \(1000\) is before invoke \(1203.5\)/,
    ],
    [
      lines[1]!.replace('"status":"ok"', '"status":"maybe"'),
      /"status" must be ok, fail or unknown, got "maybe"/,
    ],
    [lines[1]!.replace('"result":true', '"result":"yes"'), /"result" of an ok set must be true, got "yes"/],
    [lines[2]!.replace('"key":"k2",', ""), /^history line 2: "key" must be a string, got nothing/],
    [lines[3]!.replace('["p1-3"]', '["p1-3",4]'), /"result" must be an array of strings, got \["p1-3",4\]/],
    [lines[5]!.replace('"atLeast":"12"', '"atLeast":"-1"'), /"atLeast" must be a decimal integer string/],
    [lines[1]!.replace('"id":17', '"id":-1'), /"id" must be a non-negative integer, got -1/],
    [
      lines[1]!.replace('"status":"ok","result":true', '"status":"fail","result":true'),
      /"result" must be absent/,
    ],
    ['{"type":"final","bin":"b","key":"k","kind":"set","value":null}', /"kind" must be "string" or "list"/],
    [lines[0]!, /"type" meta may only be the first line/],
    [lines[8]!, /^history line 2: "key" is a second final read of string/],
  ])("names the line and field of %s", (bad, message) => {
    const text = bad === lines[8] ? `${lines[8]}\n${bad}` : `${lines[1]}\n${bad}`;
    expect(() => parseHistory(text)).toThrow(HistoryFormatError);
    expect(() => parseHistory(text)).toThrow(message);
  });
});
