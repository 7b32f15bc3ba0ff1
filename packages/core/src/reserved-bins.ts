// Bins whose names start with RESERVED_BIN_PREFIX belong to binring itself (the
// keepers' commit-point log): the SDK, the CLI and every data call refuse
// them, so no application write can hide or forge control records
// (docs/HAZARDS.md 12). Keepers reach them only through Apply and Scan.
import { InvalidArgumentError } from "./errors.js";
import { checkString } from "./limits.js";

export const RESERVED_BIN_PREFIX = "\u0000binring/";

/** Throws unless name is a bin name an application may use. */
export function checkBinName(field: string, name: unknown, maxBytes: number): string {
  const checked = checkString(field, name, maxBytes);
  if (checked.startsWith(RESERVED_BIN_PREFIX)) {
    throw new InvalidArgumentError(
      `${field} ${JSON.stringify(checked)} is reserved: names starting with ${JSON.stringify(RESERVED_BIN_PREFIX)} are binring's own`,
    );
  }
  return checked;
}
