// Run settings shared by every benchmark, and progress output on stderr.

export interface BenchSettings {
  durationMs: number;
  warmupMs: number;
  quick: boolean;
}

export function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
