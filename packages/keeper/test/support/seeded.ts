// Seeded numbers for tests (pure-rand's xoroshiro128+): the same seed, the same run.
import { uniformFloat64 } from "pure-rand/distribution/uniformFloat64";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

/** Returns a function giving numbers in [0, 1), the same sequence for the same seed. */
export function seeded(seed: number): () => number {
  const generator = xoroshiro128plus(seed);
  return () => uniformFloat64(generator);
}
