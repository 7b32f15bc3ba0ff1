// The client's own idea of which backends answer: a failed call marks a backend
// down at once (callers move on to the next replica), and down backends are
// re-probed in the background until they answer again.
import type { Logger } from "pino";

export interface ReachabilityOptions {
  /** How often down backends are probed. @default 1000 */
  probeIntervalMs: number;
  /** Asks one backend whether it answers; rejects when it does not. */
  probe(address: string): Promise<void>;
  logger: Logger;
}

export class Reachability {
  /** down backend -> why */
  readonly #down = new Map<string, string>();
  #timer: NodeJS.Timeout | undefined;
  #probing = false;

  constructor(private readonly options: ReachabilityOptions) {}

  isDown(address: string): boolean {
    return this.#down.has(address);
  }

  /** How many backends are marked down now. */
  get downCount(): number {
    return this.#down.size;
  }

  markDown(address: string, reason: string): void {
    if (this.#down.has(address)) return;
    this.#down.set(address, reason);
    this.options.logger.warn({ backend: address, from: "up", to: "down", reason }, "backend unreachable");
    this.#timer ??= setInterval(() => this.#probeDown(), this.options.probeIntervalMs);
    this.#timer.unref();
  }

  markUp(address: string): void {
    if (!this.#down.delete(address)) return;
    this.options.logger.info({ backend: address, from: "down", to: "up" }, "backend reachable again");
    if (this.#down.size === 0 && this.#timer) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  #probeDown(): void {
    if (this.#probing) return;
    this.#probing = true;
    const probes = [...this.#down.keys()].map((address) =>
      this.options.probe(address).then(
        () => this.markUp(address),
        () => {},
      ),
    );
    void Promise.all(probes).finally(() => {
      this.#probing = false;
    });
  }

  close(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
