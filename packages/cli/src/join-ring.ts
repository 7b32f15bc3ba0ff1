// `--join` of `binring backend` and `binring keeper`: once the process
// listens, it asks the keepers of the cluster file to add it (as `binring
// admin add-backend` / `add-keeper` would), trying each in turn until one
// answers. A refusal (it is leaving, say) is logged and ends the attempts.
import { setTimeout as sleep } from "node:timers/promises";
import type { MembershipChange } from "@binring/client";
import { StatusCode, type TlsFiles } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";
import type { Logger } from "pino";

/** Between attempts while no keeper answers. */
const JOIN_RETRY_MS = 1000;

export interface JoinRequest {
  what: "backend" | "keeper";
  /** The address the cluster reaches this process at. */
  address: string;
  /** The cluster file's keepers, asked in turn. */
  keepers: readonly string[];
  /** With TLS, the certificate the call presents: an admin's or a keeper's, the roles that change membership. */
  tls: TlsFiles | undefined;
  logger: Logger;
  stopped(): boolean;
  ask(keeper: string, tls: TlsFiles | undefined): Promise<MembershipChange>;
}

export async function joinRing(request: JoinRequest): Promise<void> {
  const { what, address, keepers, logger } = request;
  const { tls } = request;
  while (!request.stopped()) {
    for (const keeper of keepers) {
      try {
        const change = await request.ask(keeper, tls);
        logger.info(
          { keeper, address, changed: change.changed },
          `joined the ${what === "backend" ? "ring" : "keeper ring"}`,
        );
        return;
      } catch (error) {
        const { code, details } = error as grpc.ServiceError;
        if (code !== StatusCode.UNAVAILABLE && code !== StatusCode.DEADLINE_EXCEEDED) {
          logger.error(
            { keeper, address, err: details ?? (error as Error).message },
            `the keepers refused to add this ${what}`,
          );
          return;
        }
      }
    }
    logger.warn({ keepers }, "no keeper answered; trying to join again");
    await sleep(JOIN_RETRY_MS);
  }
}
