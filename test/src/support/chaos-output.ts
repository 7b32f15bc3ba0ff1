// What `binring chaos` prints besides its JSON log lines: the run's summary and each checker's verdict.

export function chaosVerdicts(stdout: string): string {
  return stdout
    .split("\n")
    .filter((line) => !line.startsWith("{"))
    .join("\n");
}
