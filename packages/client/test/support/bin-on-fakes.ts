// One Bin on fake replicas, a fake view and virtual time: the read and write
// paths exactly as BinClient runs them, minus processes and sockets.
import { HashRing, ringMembers, ringPoint } from "@binring/core";
import { pino } from "pino";
import { Bin } from "../../src/bin.js";
import type { OperationObserver } from "../../src/client-metrics.js";
import { ClientSession } from "../../src/client-session.js";
import { Reachability } from "../../src/reachability.js";
import { BACKEND_CALL_TIMEOUT_MS, FakeNetwork, FakeTransport } from "./fake-replicas.js";
import { FakeView } from "./fake-view.js";
import { VirtualTime } from "./virtual-time.js";

/** BinClient's default deadline of one operation. */
export const CALL_TIMEOUT_MS = 10_000;

export function binOnFakes(
  backends = ["10.0.0.1:7000", "10.0.0.2:7000", "10.0.0.3:7000"],
  observer?: OperationObserver,
  /** BinClient's backendCallTimeoutMs: how long the client waits for one attempt. */
  attemptTimeoutMs = BACKEND_CALL_TIMEOUT_MS,
) {
  const time = new VirtualTime();
  const transport = new FakeTransport(new FakeNetwork(backends, time), attemptTimeoutMs);
  const view = new FakeView(time);
  const reachability = new Reachability({
    probeIntervalMs: 1000,
    probe: async (address) => {
      if (transport.replica(address).gone) throw new Error(`${address} refuses connections`);
    },
    logger: pino({ level: "silent" }),
  });
  const session = new ClientSession({
    ring: new HashRing(ringMembers(backends)),
    transport,
    reachability,
    view,
    callTimeoutMs: CALL_TIMEOUT_MS,
    attemptTimeoutMs,
    time,
    observer,
  });
  const bin = new Bin(session, "b", ringPoint("b"));
  const [primary, backup1, backup2] = session.placement(bin.point).replicas.map((a) => transport.replica(a));
  return {
    bin,
    time,
    transport,
    view,
    reachability,
    /** The bin's replicas in placement order while every backend is live. */
    primary: primary!,
    backup1: backup1!,
    backup2: backup2!,
    close: () => reachability.close(),
  };
}
