package dev.dockhand.sandbox;

import java.util.List;

/**
 * The bash that ends a command's processes inside the container. Every exec carries a marker variable; a process
 * keeps it through {@code setsid} and daemonising, and a process that clears its environment still belongs to the
 * session of one that has it ({@code docker exec} makes each exec a session leader). The sweep kills both kinds, with
 * builtins only, so it works when the container's process limit is full and nothing more can be forked.
 */
final class SweepScript {
    /** The variable whose value, unique per exec, marks every process the command starts. */
    static final String MARKER = "DOCKHAND_EXEC";

    /** What {@link #killer} prints once a pass finds nothing left to kill. */
    static final String CLEAN = "clean";

    /**
     * {@code sweep MARKER}: kills every process whose environment holds {@code DOCKHAND_EXEC=MARKER} and every process
     * in the session of one that does, except the shell running it (as the wrapper, that shell leads the command's
     * session, and its marker is what marks the session). Each pass stops (SIGSTOP) the ones still running; once a
     * pass finds all of them stopped it kills them (SIGKILL), and a pass that finds none prints {@value #CLEAN}. A fork
     * bomb is stopped before it is killed: killing frees pids that its other processes would fork into at once, while
     * a stopped process keeps its pid and forks nothing. At most 50 passes.
     */
    private static final String SWEEP =
            """
            sweep() {
              local mark="DOCKHAND_EXEC=$1" pass p v f n
              local -a pids sids states hit found running
              local -A marked
              for ((pass = 0; pass < 50; pass++)); do
                pids=() sids=() states=() hit=() found=() running=() marked=()
                for p in /proc/[1-9]*; do
                  p=${p#/proc/}
                  read -r f 2>/dev/null <"/proc/$p/stat" || continue
                  f=(${f##*) })
                  [[ ${f[0]} == [ZX] ]] && continue
                  pids+=("$p") states+=("${f[0]}") sids+=("${f[3]}") hit+=("")
                  while IFS= read -r -d '' v; do
                    if [[ $v == "$mark" ]]; then marked[${f[3]}]=1; hit[-1]=1; break; fi
                  done 2>/dev/null <"/proc/$p/environ"
                done
                for n in "${!pids[@]}"; do
                  if [[ ${pids[n]} != "$BASHPID" && ( ${hit[n]} || ${marked[${sids[n]}]} ) ]]; then
                    found+=("${pids[n]}")
                    [[ ${states[n]} == [Tt] ]] || running+=("${pids[n]}")
                  fi
                done
                if ((${#found[@]} == 0)); then echo clean; return 0; fi
                if ((${#running[@]} > 0)); then
                  kill -STOP "${running[@]}" 2>/dev/null
                else
                  kill -KILL "${found[@]}" 2>/dev/null
                fi
              done
              return 1
            }
            """;

    /**
     * Runs the command ({@code $1}) in a child bash and, when that exits, sweeps whatever it left behind, then exits
     * with the command's status. The sweep's own output goes nowhere: the command's output is the model's.
     */
    private static final String WRAPPER = SWEEP
            + """
            bash -c "$1"
            status=$?
            sweep "$DOCKHAND_EXEC" >/dev/null
            exit $status
            """;

    private SweepScript() {}

    /** The exec's command line for {@code command}: bash running {@link #WRAPPER}. */
    static List<String> wrapped(String command) {
        return List.of("bash", "-c", WRAPPER, "dockhand", command);
    }

    /** A command line that sweeps the processes of the exec marked {@code marker}, printing {@value #CLEAN}. */
    static List<String> killer(String marker) {
        return List.of("bash", "-c", SWEEP + "sweep \"$1\"\n", "dockhand", marker);
    }
}
