package io.shellgate.it;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when any JVM it ran with the agent reported a transformation error: a JDK class
 * the agent could not change means processes that are not gated, whatever else the test saw.
 * (Where a class's tests run two at a time, the error fails whichever of the two ends first.)
 */
final class AgentTransformationErrors implements AfterEachCallback {

    /** What the agent prints for a class it could not change (LazyTransformer.ERROR_MARKER). */
    static final String MARKER = "shellgate agent: transformation error";

    private static final List<String> REPORTS = new ArrayList<>();

    /** Records the standard error of a JVM that ran with the agent. */
    static void check(String stderr) {
        for (String line : stderr.split("\n")) {
            if (line.contains(MARKER)) {
                synchronized (REPORTS) {
                    REPORTS.add(line);
                }
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> found;
        synchronized (REPORTS) {
            found = List.copyOf(REPORTS);
            REPORTS.clear();
        }
        if (!found.isEmpty()) {
            throw new AssertionError("the agent reported transformation errors:\n" + String.join("\n", found));
        }
    }
}
