// Loaded before every integration test file (vitest.config.ts setupFiles):
// tells failed-tests.ts when a test fails.
import { beforeEach } from "vitest";
import { noteTestFailed } from "./failed-tests.js";

beforeEach(({ onTestFailed }) => {
  onTestFailed(noteTestFailed);
});
