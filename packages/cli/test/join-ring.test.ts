// `--join`: asks the keepers in turn, tries again while none answers or one
// refuses for now (it cannot reach the joining process yet), and stops at once
// on a malformed request.
import type { MembershipChange } from "@binring/client";
import { BinringError, StatusCode, type StatusCodeValue } from "@binring/core";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { joinRing } from "../src/join-ring.js";

function refusal(code: StatusCodeValue, message: string): Error {
  const error = new BinringError(message, code);
  return Object.assign(error, { details: message });
}

/** Runs a join whose keepers answer with `answers`, one per call, in order; returns the keepers asked. */
async function join(answers: (MembershipChange | Error)[]): Promise<string[]> {
  const asked: string[] = [];
  await joinRing({
    what: "backend",
    address: "10.0.0.9:7000",
    keepers: ["k0:7600", "k1:7600"],
    tls: undefined,
    logger: pino({ level: "silent" }),
    stopped: () => asked.length >= answers.length,
    retryMs: 1,
    ask: async (keeper) => {
      const answer = answers[asked.length];
      asked.push(keeper);
      if (answer === undefined || answer instanceof Error) throw answer ?? new Error("asked once too often");
      return answer;
    },
  });
  return asked;
}

const JOINED: MembershipChange = { changed: true, status: "member" };

describe("joinRing", () => {
  it("skips a keeper that does not answer, and tries again while the keepers cannot reach it yet", async () => {
    const asked = await join([
      refusal(StatusCode.UNAVAILABLE, "connection refused"),
      refusal(StatusCode.FAILED_PRECONDITION, "nothing answers at 10.0.0.9:7000: nothing recorded"),
      refusal(StatusCode.FAILED_PRECONDITION, "nothing answers at 10.0.0.9:7000: nothing recorded"),
      JOINED,
    ]);
    expect(asked).toEqual(["k0:7600", "k1:7600", "k0:7600", "k0:7600"]);
  });

  it("stops at a malformed request", async () => {
    const asked = await join([
      refusal(StatusCode.INVALID_ARGUMENT, 'backend address must be "host:port"'),
      JOINED,
    ]);
    expect(asked).toEqual(["k0:7600"]);
  });
});
