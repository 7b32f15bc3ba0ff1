// The `binring` entry point, for the local clusters dev and chaos start.
import { fileURLToPath } from "node:url";

export const CLI_MAIN = fileURLToPath(new URL("./main.js", import.meta.url));
