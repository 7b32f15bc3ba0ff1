#!/usr/bin/env bash
# The CI chaos run from a shell: build, start a 6-backend local cluster, each
# process in its own network namespace (needs root), 60 s of process and network
# faults (a fault every 4 s), check the history; exits non-zero when a checker
# fails. The same run is the vitest test test/src/chaos/chaos-run.test.ts.
# FAULTS= overrides --faults (e.g. FAULTS=process where namespaces are not allowed).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run build --silent
exec node packages/cli/dist/main.js chaos --local --backends 6 --keepers "${KEEPERS:-3}" \
  --duration 60s --fault-every 4s --faults "${FAULTS:-process,network,keeper-partition}" --seed "${SEED:-1}" \
  --out "${OUT:-.binring/chaos/ci}"
