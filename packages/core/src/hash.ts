// The ring hash: xxHash32 (seed 0) of a name's UTF-8 bytes, from the
// xxhash-wasm package (WebAssembly, no native addon). Clients, backends and
// keepers must all use this one function, or they would disagree on placement.
import xxhash from "xxhash-wasm";

const { h32 } = await xxhash();

/** The ring point of a bin name or virtual node label: an integer in [0, 2^32). */
export function ringPoint(name: string): number {
  // h32 UTF-8 encodes the string and already returns the unsigned value;
  // `>>> 0` pins that down, as a signed point would break every comparison.
  return h32(name, 0) >>> 0;
}
