#!/usr/bin/env bash
# Makes a Docker engine answer on this Debian/Ubuntu host, for the Docker sandbox and its tests.
# Does nothing where Docker already answers. Otherwise installs Debian's docker.io if needed and starts dockerd with
# no bridge network at all (--bridge=none): Dockhand's containers run with network "none" and need none.
# Prints the PID of the dockerd it started to the file named by $DOCKHAND_DOCKERD_PIDFILE (default
# /tmp/dockhand-dockerd.pid), so the caller can stop it.
set -euo pipefail

pidfile="${DOCKHAND_DOCKERD_PIDFILE:-/tmp/dockhand-dockerd.pid}"
log="${DOCKHAND_DOCKERD_LOG:-/tmp/dockhand-dockerd.log}"

if docker info >/dev/null 2>&1; then
  echo "docker-setup: Docker already answers; nothing to do."
  exit 0
fi

if [ "$(id -u)" != 0 ]; then
  echo "docker-setup: Docker does not answer, and starting it needs root; run this script with sudo." >&2
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1; then
  echo "docker-setup: installing Debian's docker.io..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq docker.io >/dev/null
fi

if ip link show docker0 >/dev/null 2>&1; then
  echo "docker-setup: a docker0 bridge exists; stop the dockerd that made it and run 'ip link delete docker0'." >&2
  exit 1
fi

echo "docker-setup: starting dockerd (no bridge, no iptables); log in $log"
nohup dockerd --bridge=none --iptables=false --ip-masq=false >"$log" 2>&1 &
echo $! >"$pidfile"

for _ in $(seq 1 60); do
  if docker info >/dev/null 2>&1; then
    echo "docker-setup: Docker answers (dockerd pid $(cat "$pidfile"))."
    exit 0
  fi
  sleep 1
done
echo "docker-setup: dockerd did not answer within 60 s; see $log" >&2
exit 1
