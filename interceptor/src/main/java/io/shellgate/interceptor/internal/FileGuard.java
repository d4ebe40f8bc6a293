package io.shellgate.interceptor.internal;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;

/**
 * What the advice in the JDK's file classes calls before a write, a creation, a rename or a
 * deletion: refuses it when it would land in shellgate's own files ({@link GateFiles}), so that no
 * code of the JVM (an agent's file tool, say) can add an approval, change a policy, the audit log
 * or the run directory. The gate's own code in the JVM (the in-process judge's audit log) writes
 * as before. In audit mode the write is reported on standard error and goes on.
 */
public final class FileGuard {

    private static final GateFiles FILES = GateFiles.of(System.getenv());
    private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();

    private FileGuard() {}

    /** Before {@code java.io}'s writes: refuses with a {@link FileNotFoundException}, as a failed open says. */
    public static void write(String name) throws IOException {
        check(name, false);
    }

    /** Before {@code java.nio.file}'s writes: refuses with an {@link AccessDeniedException}. */
    public static void writeNio(String name) throws IOException {
        check(name, true);
    }

    /** Before {@code java.io.File}'s changes, which say failure by returning false: whether to refuse. */
    public static boolean refuses(String name) {
        try {
            check(name, false);
            return false;
        } catch (IOException e) {
            System.err.println(e.getMessage());
            return true;
        }
    }

    private static void check(String name, boolean nio) throws IOException {
        if (name == null || INSIDE.get() != null) {
            return;
        }
        INSIDE.set(Boolean.TRUE);
        try {
            String dir = FILES.holding(name);
            if (dir == null || gatesOwn()) {
                return;
            }
            String why = "shellgate: refused (gate-file): " + name + " is in " + dir + ", one of shellgate's own"
                    + " directories (policy, approvals, audit log, run directory), which no program of an agent writes;"
                    + " a person answers shellgate's questions with shellgate approvals --watch, from a terminal of their own";
            if (Gate.options().audit()) {
                System.err.println("shellgate agent (audit mode, let through): " + why);
                return;
            }
            throw nio ? new AccessDeniedException(name, null, why) : new FileNotFoundException(why);
        } finally {
            INSIDE.remove();
        }
    }

    /** Whether the write comes from the gate's own code in this JVM (its audit log, its caches). */
    private static boolean gatesOwn() {
        return StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                .anyMatch(c -> c.startsWith("io.shellgate.") && !c.startsWith("io.shellgate.interceptor.internal.FileGuard")));
    }
}
