// A running repair's or fill's pace, from what its keeper reports of it: the
// rate it has copied at so far, and how long it should take yet at that rate,
// judged by its copies done (each a stretch of the ring). Both the keeper's
// /status and the report read back from Keeper.Status carry it, so `binring
// status --json` gives the same numbers its table shows.

export interface RepairPace {
  /** Bytes applied per second since it started, as `bytesCopied` counts them. */
  bytesPerSecond: number;
  /** Milliseconds left at that pace; absent before its first copy is done and after its last. */
  etaMs?: number;
}

export function repairPace(progress: {
  runningMs: number;
  bytesCopied: number;
  tasksDone: number;
  tasksTotal: number;
}): RepairPace {
  const { runningMs, bytesCopied, tasksDone, tasksTotal } = progress;
  const bytesPerSecond = runningMs > 0 ? Math.round((bytesCopied * 1000) / runningMs) : 0;
  if (tasksDone === 0 || tasksDone >= tasksTotal) return { bytesPerSecond };
  return { bytesPerSecond, etaMs: Math.round((runningMs * (tasksTotal - tasksDone)) / tasksDone) };
}
