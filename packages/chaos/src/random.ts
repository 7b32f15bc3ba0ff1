// A seeded pseudo-random stream (xoroshiro128+ from pure-rand), so a chaos run
// with the same seed makes the same choices. Each workload process and the
// fault schedule get their own stream, split off by a jump, so the choices of
// one do not shift with how many draws another made.
import { uniformInt } from "pure-rand/distribution/uniformInt";
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";

type Generator = ReturnType<typeof xoroshiro128plus>;

export class Random {
  private constructor(private readonly generator: Generator) {}

  static seeded(seed: number): Random {
    return new Random(xoroshiro128plus(seed));
  }

  /** A new independent stream, 2^64 draws away from this one; this one moves on too. */
  split(): Random {
    const stream = this.generator.clone();
    this.generator.jump();
    return new Random(stream);
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.generator, min, max);
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + (this.int(0, 2 ** 30 - 1) / 2 ** 30) * (max - min);
  }

  chance(probability: number): boolean {
    return this.between(0, 1) < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from an empty list");
    return items[this.int(0, items.length - 1)]!;
  }

  /** Picks by weight; entries with weight 0 are never chosen. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    if (total <= 0) throw new Error("weighted pick with no positive weight");
    let point = this.between(0, total);
    for (const [item, weight] of entries) {
      if (point < weight) return item;
      point -= weight;
    }
    return entries.findLast(([, weight]) => weight > 0)![0];
  }
}
