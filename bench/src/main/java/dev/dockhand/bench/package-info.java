/** Benchmarks run by the scripts under {@code scripts/}; not tests, and never run by the build. */
package dev.dockhand.bench;
