#!/usr/bin/env bash
# Benchmark (not a test): what one command costs in Dockhand's warm Docker sandbox against a plain `docker exec`
# of the same command, how long the first command takes (container start included), and the first command of a
# session, through the launcher, against a warm one when the model takes a second over the first prompt.
#   scripts/bench-sandbox.sh [RUNS]      (default 30)
# Needs a running Docker engine and the sandbox image (scripts/docker-setup.sh, scripts/build-sandbox-image.sh).
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
classpath="$("$root/scripts/bench-classpath.sh")"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
exec "$java" -XX:+UseSerialGC -cp "$classpath" dev.dockhand.bench.SandboxBenchmark "${1:-30}" "$root/scripts/dockhand"
