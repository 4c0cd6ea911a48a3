#!/usr/bin/env bash
# Prints the class path of the benchmark module (bench/) and the REPL demo's scripted model: dockhand.jar, the cli's
# test kit (the scripted model server) and the benchmarks. Builds them first when one is missing or older than a
# source or pom, with one line on stderr.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
jars=("$root/cli/target/dockhand.jar" "$root/cli/target/dockhand-cli-tests.jar" "$root/bench/target/dockhand-bench.jar")
for jar in "${jars[@]}"; do
  if [ ! -f "$jar" ] || [ -n "$(find "$root/pom.xml" "$root"/*/pom.xml "$root"/*/src -newer "$jar" -print -quit)" ]; then
    echo "bench: building the CLI and the benchmarks..." >&2
    (cd "$root" && ./mvnw -B -q -DskipTests package -pl bench -am) >&2
    break
  fi
done
(IFS=:; echo "${jars[*]}")
