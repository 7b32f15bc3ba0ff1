#!/usr/bin/env bash
# The soak: 10 minutes of chaos on a 6-backend local cluster, a fault every 5 s,
# then every checker. The report (report.md, timeline.svg, history.jsonl) goes
# to $OUT (default .binring/chaos/soak-<seed>); progress prints every 5 s.
# FUZZ=1 runs a hostile caller (random and boundary values in every data call) alongside.
# FAULTS= is passed as --faults (e.g. FAULTS=process,network; default process).
# STORE=memory runs the backends on the in-memory engine (--store memory).
set -euo pipefail
cd "$(dirname "$0")/../.."
seed="${SEED:-$(date +%s)}"
npm run build --silent
exec node packages/cli/dist/main.js chaos --local --backends 6 --keepers "${KEEPERS:-3}" \
  --duration "${DURATION:-10m}" --fault-every 5s --seed "$seed" --out "${OUT:-.binring/chaos/soak-$seed}" \
  ${FUZZ:+--fuzz} ${FAULTS:+--faults "$FAULTS"} ${STORE:+--store "$STORE"}
