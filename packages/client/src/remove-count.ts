// Which replica's answer a remove reports, and what that means for an append
// of the same value that a remove overtook.
//
// A remove of value v deletes every append of v with a smaller stamp, wherever
// it lands, and reports the count decided by the first replica of the bin that
// was ready when it applied the remove: the one readers use. An append stamped
// below such a remove is therefore either counted by it (it reached that
// replica first) or must never show (it is stamped again above the remove and
// applied anew). A replica the remove reached first answers the append
// `superseded`; one that held the append before the remove deleted it does
// not (it remembers such appends for as long as remove counts, so a retry
// whose first reply was lost is told apart). Whether "superseded" means "not
// counted" depends on the counting replica alone.
import type { WriteReply__Output } from "@binring/core";

/**
 * The reply a write reports: the first replica, in placement order, that was
 * ready when it applied the entry (a filling replica may miss earlier appends,
 * so its count is not trusted); the first reply when none was.
 */
export function reportedReply(
  replicas: readonly string[],
  applied: ReadonlyMap<string, WriteReply__Output>,
): WriteReply__Output | undefined {
  const replies = replicas.flatMap((address) => applied.get(address) ?? []);
  return replies.find((reply) => reply.ready) ?? replies[0];
}

/**
 * An append was answered `superseded` by a replica: must it be stamped again?
 * Not when the counting replica — the first one in placement order that is
 * ready — already took it under its current stamp, before the remove got
 * there: the remove then counted it (and deletes it everywhere). That happens
 * when placement changed between attempts (a replica died; a newcomer the
 * remove reached first joined the list), and restamping there made an append
 * show that the remove had counted as removed (found by a 10-minute soak).
 * When the counting replica has not answered yet, the remove that superseded
 * the append reached a replica before it and, following the same order, the
 * counting replica before it too: stamp it again.
 */
export function mustRestamp(
  replicas: readonly string[],
  applied: ReadonlyMap<string, WriteReply__Output>,
): boolean {
  for (const address of replicas) {
    const reply = applied.get(address);
    if (!reply) return true;
    if (reply.ready) return reply.superseded;
  }
  return true;
}
