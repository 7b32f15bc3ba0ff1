#!/usr/bin/env bash
# npm test's static checks, side by side on two cores instead of in turn: the
# build and type check (the tests need the build) on one, lint and the
# import-cycle check on the other. The second pair's output is held until the
# type check is done, so the two do not interleave. Fails when any check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
others=$(mktemp)
trap 'rm -f "$others"' EXIT
(npm run lint && npm run check:cycles) >"$others" 2>&1 &
pid=$!
npm run typecheck
typecheck=$?
wait "$pid"
rest=$?
cat "$others"
exit $((typecheck || rest))
