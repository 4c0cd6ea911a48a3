package dev.dockhand.cli.environment;

/**
 * The process exit codes, the same as gemini-cli's where they overlap so scripts can treat both alike. Listed in the
 * README and in {@code --help}.
 */
public final class ExitCodes {
    /** The model answered. */
    public static final int OK = 0;
    /**
     * The model, the provider or the network failed; also when the model's last reply had neither text nor a tool
     * call, so there was no answer.
     */
    public static final int PROVIDER_FAILURE = 1;
    /** The command line was wrong (unknown option, no prompt). */
    public static final int USAGE = 2;
    /** The provider refused the API key (HTTP 401 or 403). */
    public static final int AUTHENTICATION = 41;
    /** The Docker sandbox cannot run: Docker does not answer, or the sandbox image is missing. */
    public static final int SANDBOX_UNAVAILABLE = 44;
    /**
     * Configuration is missing or wrong (no model, no API key, bad base URL), or the Docker sandbox would mount the
     * user's home folder (started in it, in a folder above it, or in the file system's root).
     */
    public static final int CONFIGURATION = 52;
    /** The model still wanted tools when --max-turns was reached. */
    public static final int TURN_LIMIT = 53;
    /** A tool call needed approval that nobody could give (a non-interactive run), so it was refused. */
    public static final int APPROVAL_REQUIRED = 54;
    /** The run outlived --max-wall-time and was stopped. */
    public static final int WALL_TIME_LIMIT = 55;
    /** The model asked for more tool calls than --max-tool-calls allows. */
    public static final int TOOL_CALL_LIMIT = 56;
    /** The model repeated the same call or reply and the run was stopped. */
    public static final int LOOP_DETECTED = 57;
    /** The run's cost passed --max-cost and it was stopped before another request. */
    public static final int COST_LIMIT = 58;
    /** A UserPromptSubmit hook blocked the prompt, so nothing was sent. */
    public static final int PROMPT_BLOCKED = 59;
    /** {@code dockhand checkpoints restore} was not confirmed: no {@code --yes} and no terminal to ask, or a no. */
    public static final int CONFIRMATION_REQUIRED = 61;
    /** The checkpoints of the folder could not be read, or a restore failed part way. */
    public static final int CHECKPOINT_FAILED = 62;
    /** Interrupted by Ctrl-C (SIGINT). */
    public static final int INTERRUPTED = 130;

    private ExitCodes() {}
}
