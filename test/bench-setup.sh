#!/usr/bin/env bash
# What `npm run bench` needs beyond npm ci: etcd (Debian's etcd-server) for the
# peers benchmark. Installed when apt-get can (as root); otherwise the bench
# skips etcd with one line saying how to install it.
set -euo pipefail
if ! command -v etcd >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "bench setup: installing etcd-server for the peers benchmark" >&2
  (apt-get install -y etcd-server >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y etcd-server >/dev/null 2>&1; }) ||
    echo "bench setup: could not install etcd-server; the peers benchmark skips etcd" >&2
fi
