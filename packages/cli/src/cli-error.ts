// An error the CLI reports as one readable line and a non-zero exit, without a stack.
export class CliError extends Error {
  constructor(
    message: string,
    /** Process exit code. @default 2 (bad usage) */
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = "CliError";
  }
}
