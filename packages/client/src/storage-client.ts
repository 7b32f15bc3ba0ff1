// A client for exactly one backend, speaking the Storage contract. It connects
// lazily, fails calls while the backend is down, and works again by itself
// when the backend returns.
import {
  bigintToWire,
  checkBinName,
  checkClock,
  checkTransportable,
  DEFAULT_LIMITS,
  type KeyPattern,
  newWriterId,
  type SetRequest,
  type Storage,
  type Target,
  wireToBigint,
} from "@binring/core";
import { BackendChannel, type BackendChannelOptions } from "./backend-channel.js";

export interface StorageClientOptions extends BackendChannelOptions {
  /** The bin this client reads and writes. @default "" */
  bin?: string;
}

export class StorageClient implements Storage {
  readonly channel: BackendChannel;
  readonly #target: Target;
  readonly #writer = newWriterId();
  #seq = 0;

  constructor(
    readonly address: string,
    options: StorageClientOptions = {},
  ) {
    this.channel = new BackendChannel(address, options);
    this.#target = {
      bin: checkBinName("bin", options.bin ?? "", DEFAULT_LIMITS.maxKeyBytes),
      epoch: "0",
      requireReady: false,
    };
  }

  #write(key: string, value: string): SetRequest {
    checkTransportable(key, value);
    this.#seq = (this.#seq + 1) >>> 0;
    return { target: this.#target, key, value, writer: this.#writer, seq: this.#seq };
  }

  async get(key: string): Promise<string | null> {
    const { get } = await this.channel.execute({ get: { target: this.#target, key } });
    return get?.found ? get.value : null;
  }

  async set(key: string, value: string): Promise<true> {
    await this.channel.execute({ set: this.#write(key, value) });
    return true;
  }

  async keys(pattern: KeyPattern = {}): Promise<string[]> {
    const { keys } = await this.channel.execute({ keys: { target: this.#target, ...pattern } });
    return keys?.keys ?? [];
  }

  async listGet(key: string): Promise<string[]> {
    const { listGet } = await this.channel.execute({ listGet: { target: this.#target, key } });
    return listGet?.values ?? [];
  }

  async listAppend(key: string, value: string): Promise<true> {
    await this.channel.execute({ listAppend: this.#write(key, value) });
    return true;
  }

  async listRemove(key: string, value: string): Promise<number> {
    const { write } = await this.channel.execute({ listRemove: this.#write(key, value) });
    return Number(write?.removed ?? 0);
  }

  async listKeys(pattern: KeyPattern = {}): Promise<string[]> {
    const { keys } = await this.channel.execute({ listKeys: { target: this.#target, ...pattern } });
    return keys?.keys ?? [];
  }

  async clock(atLeast = 0n): Promise<bigint> {
    checkClock("atLeast", atLeast);
    const { clock } = await this.channel.execute({
      clock: { target: this.#target, atLeast: bigintToWire(atLeast) },
    });
    return wireToBigint(clock?.clock);
  }

  /** Releases the connection; calls made afterwards fail. */
  async close(): Promise<void> {
    this.channel.close();
  }
}
