// What the chaos runner needs from a cluster whose processes each sit in a
// network namespace of their own: cut and slow the traffic between them. The
// launcher implements it with `tc` on each namespace's interface
// (packages/launcher/src/traffic-control.ts).

/**
 * A place traffic comes from or goes to: a backend (with its redis-server,
 * which only it talks to), a keeper, or "clients": the chaos run's own
 * namespace, where the workload's clients and the status reads run.
 */
export type NetworkNode = `backend-${number}` | `keeper-${number}` | "clients";

/** A slow, lossy link: what one side sends is capped at a bandwidth (so it queues and waits), and a share of it is dropped. */
export interface SlowLink {
  /** Bandwidth cap: a 1 KB message takes 8000 / kbitPerSecond ms, more behind a queue. */
  kbitPerSecond: number;
  /** Share of packets dropped at random, 0 to 100. */
  lossPercent: number;
}

/** Undoes what a call of NetworkControl did. */
export type Undo = () => Promise<void>;

export interface NetworkControl {
  /** Silently drops every packet `from` sends to any of `to` (nothing comes back to say so), until undone. */
  cut(from: NetworkNode, to: readonly NetworkNode[]): Promise<Undo>;
  /** Makes what `from` sends to `to` slow and lossy, until undone; the other direction is untouched. */
  slow(from: NetworkNode, to: NetworkNode, link: SlowLink): Promise<Undo>;
}
