// The CI chaos run's parameters, shared by the vitest chaos tests and
// test/chaos/ci.sh's documentation: 6 backends and 3 keepers (so keepers are
// killed and paused too), a fault every 4 s for 60 s.
export const CI_KEEPERS = 3;
export const CI_BACKENDS = 6;
