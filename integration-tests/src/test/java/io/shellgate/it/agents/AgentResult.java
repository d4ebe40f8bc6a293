package io.shellgate.it.agents;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * How a run ended and what was seen: the agent's exit code and output, every request its stub model
 * got and the tool results among them, the request lines of connections to any other host (the
 * tripwire proxy), and when traced, the execve calls and the IP addresses connected to
 * ({@code address:port}).
 *
 * @param timedOut the run was killed at its time limit (exitCode is then -1)
 */
public record AgentResult(Agent agent, int exitCode, boolean timedOut, String stdout, String stderr,
        List<StubModel.Request> requests, List<String> toolResults, List<String> tripwire, List<Exec> execs,
        List<String> connections, Path home, Path work, Duration elapsed) {

    /** The executions of a shell whose command text contains {@code text}. */
    public List<Exec> shellsRunning(String text) {
        return execs.stream().filter(Exec::isShell).filter(e -> e.argv().stream().anyMatch(a -> a.contains(text))).toList();
    }

    @Override
    public String toString() {
        return agent + " exit " + exitCode + (timedOut ? " (timed out)" : "") + " after " + elapsed.toMillis() + " ms\n"
                + "--- tool results\n" + toolResults + "\n--- tripwire\n" + tripwire + "\n--- stdout\n" + stdout
                + "--- stderr\n" + stderr + "--- requests: " + requests.stream().map(r -> r.method() + " " + r.path()).toList();
    }
}
