package io.shellgate.launcher.internal.hook;

/**
 * What a hook command prints and exits with.
 *
 * @param exit the exit code (2 blocks the call in every agent shellgate answers for)
 * @param stdout the agent's answer, if any
 * @param stderr what the agent shows when the exit code blocks
 */
public record HookAnswer(int exit, String stdout, String stderr) {

    /** A call that could not be answered: blocked, whatever the agent, with the reason. */
    public static HookAnswer failed(String why) {
        return new HookAnswer(2, "", "shellgate: " + why + "\n");
    }
}
