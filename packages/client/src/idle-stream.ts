// A server stream's messages, failing once none has arrived for a while. A
// Scan has no deadline of its own: copying a large stretch at a paced rate
// runs for as long as it takes, and a deadline on the whole stream made any
// copy longer than it fail and start over, forever. What marks a source as
// stuck is silence, so the wait for each next message is what is bounded. The
// time the consumer spends on a message (its own pacing) is not counted.
import { TimeoutError } from "@binring/core";
import type * as grpc from "@grpc/grpc-js";

/**
 * Yields `stream`'s messages; throws a TimeoutError naming `what` when the
 * next message has not come within `idleMs` of asking for it. The stream is
 * cancelled however the iteration ends.
 */
export async function* untilSilent<M>(
  stream: grpc.ClientReadableStream<M>,
  idleMs: number,
  what: string,
): AsyncIterable<M> {
  let silent = false;
  const onSilence = () => {
    silent = true;
    stream.cancel();
  };
  let timer = setTimeout(onSilence, idleMs);
  try {
    for await (const message of stream) {
      clearTimeout(timer);
      yield message as M;
      timer = setTimeout(onSilence, idleMs);
    }
  } catch (error) {
    if (silent) throw new TimeoutError(`${what} sent nothing for ${idleMs} ms`, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    stream.cancel();
  }
}
