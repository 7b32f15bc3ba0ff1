// Child processes in tests are the launcher's (one process class for dev, chaos, tests and benchmarks).
export { ManagedProcess as ChildProcess, type SpawnOptions } from "@binring/launcher";
