// The ring hash: xxHash32 (seed 0) of a name's UTF-8 bytes, from the
// xxhash-wasm package (WebAssembly, no native addon). Clients, backends and
// keepers must all use this one function, or they would disagree on placement.
import xxhash from "xxhash-wasm";

const { h32 } = await xxhash();

/** The ring point of a bin name or virtual node label. */
export function ringPoint(name: string): number {
  return h32(name, 0) >>> 0;
}
