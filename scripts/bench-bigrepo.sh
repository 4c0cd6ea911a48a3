#!/usr/bin/env bash
# Benchmark (not a test): grep, glob, list_directory and read_file on the JDK's own source tree (lib/src.zip,
# unpacked into a temporary folder, about 15,000 files) against ripgrep, ls and cat doing the same work, each ratio
# beside its target (docs/performance.md). Skipped, with the reason, when there is no src.zip or no rg.
#   scripts/bench-bigrepo.sh [RUNS] [SRC_ZIP]      (default 5 runs, after one warm-up run when RUNS > 1)
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
classpath="$("$root/scripts/bench-classpath.sh")"
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
exec "$java" -XX:+UseSerialGC -cp "$classpath" dev.dockhand.bench.BigRepoBenchmark "${1:-5}" ${2:+"$2"}
