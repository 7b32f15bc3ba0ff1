// The public storage contract: one backend (StorageClient), an in-process
// engine, and every bin of a cluster (BinClient) all offer exactly this.

export interface KeyPattern {
  /** Keys must start with this. @default "" */
  prefix?: string;
  /** Keys must end with this (it may overlap the prefix). @default "" */
  suffix?: string;
}

export interface Storage {
  /** The value, or null when unset. */
  get(key: string): Promise<string | null>;
  /** Always true; set(key, "") deletes the key. */
  set(key: string, value: string): Promise<true>;
  /** Keys with a non-empty value matching the pattern, sorted. */
  keys(pattern?: KeyPattern): Promise<string[]>;
  /** The list in append order; [] when unset. */
  listGet(key: string): Promise<string[]>;
  /** Always true; duplicates are kept. */
  listAppend(key: string, value: string): Promise<true>;
  /** Removes every occurrence and returns how many this call removed. */
  listRemove(key: string, value: string): Promise<number>;
  /** Keys of non-empty lists matching the pattern, sorted. Strings and lists are separate namespaces. */
  listKeys(pattern?: KeyPattern): Promise<string[]>;
  /** Raises the clock to atLeast if below, returns it, then increments it. */
  clock(atLeast?: bigint): Promise<bigint>;
}

/** True when key matches the pattern (prefix and suffix may overlap). */
export function matchesPattern(key: string, pattern: KeyPattern | undefined): boolean {
  return key.startsWith(pattern?.prefix ?? "") && key.endsWith(pattern?.suffix ?? "");
}
