// The CI chaos run's parameters, shared by the vitest chaos tests and
// test/chaos/ci.sh's documentation: 6 backends and 3 keepers (so keepers are
// killed and paused too), process and network faults (keepers cut from each
// other among them), a fault every 4 s for 60 s.
export const CI_KEEPERS = 3;
export const CI_BACKENDS = 6;
export const CI_FAULTS = "process,network,keeper-partition";
/** The network faults the CI run asks for: the schedule injects each once before any other fault. */
export const NETWORK_FAULTS = ["partition", "cut-clients", "cut-one-way", "slow-link", "partition-keepers"];
