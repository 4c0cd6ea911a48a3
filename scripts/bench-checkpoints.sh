#!/usr/bin/env bash
# Benchmark (not a test): what a checkpoint costs on a 10,000-file workspace in which nothing changed (target
# <= 50 ms), with the git binary's same snapshot beside it for comparison.
#   scripts/bench-checkpoints.sh [RUNS]      (default 30)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
classpath="$("$root/scripts/bench-classpath.sh")"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
exec "$java" -XX:+UseSerialGC -cp "$classpath" dev.dockhand.bench.CheckpointBenchmark "${1:-30}"
