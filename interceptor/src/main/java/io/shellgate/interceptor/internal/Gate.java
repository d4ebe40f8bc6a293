package io.shellgate.interceptor.internal;

import java.io.File;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What the advice in the JDK's process classes calls: judges and reviews a process before it
 * starts, and throws the agent's refusal ({@code io.shellgate.interceptor.ShellgateRefusedException}, which the
 * entry point registers with {@link #configure}) when it must not. Processes the gate starts
 * itself (the judge server) pass without a judgement, and so does nothing else.
 */
public final class Gate {

    private static final ThreadLocal<Boolean> INSIDE = new ThreadLocal<>();
    /** Where the JVM started, which it never leaves: a child without a directory of its own starts there. */
    private static final Path JVM_DIRECTORY = Path.of("").toAbsolutePath();
    private static final File JVM_DIRECTORY_FILE = JVM_DIRECTORY.toFile();
    private static volatile AgentOptions options = AgentOptions.parse(null, null);
    private static volatile Instrumentation instrumentation;
    private static volatile Backend backend;
    private static volatile Refusal refusal = new PlainRefusal();

    private Gate() {}

    /**
     * The exception a refused start throws. The agent's entry point gives the public one; this package
     * does not name it, so that the API package, which names this package, is not also below it.
     */
    public interface Refusal {
        IOException refused(String rule, String tier, String reason);
    }

    /** Until the entry point registers its own: an {@link IOException} with the same message. */
    private static final class PlainRefusal implements Refusal {
        @Override
        public IOException refused(String rule, String tier, String reason) {
            return new IOException("shellgate: refused (" + rule + "): " + reason);
        }
    }

    /** Called once by the agent's entry point. */
    public static void configure(AgentOptions agentOptions, Instrumentation inst) {
        options = agentOptions;
        instrumentation = inst;
    }

    /** Called once by the agent's entry point, before any advice can run. */
    public static void configure(AgentOptions agentOptions, Instrumentation inst, Refusal entryRefusal) {
        refusal = entryRefusal;
        configure(agentOptions, inst);
    }

    /** The options in force. */
    static AgentOptions options() {
        return options;
    }

    /**
     * Turns audit mode into enforcing (a second agent in the JVM asked for it); never the other
     * way. Returns whether the mode changed.
     */
    public static boolean enforce() {
        AgentOptions o = options;
        if (!o.audit()) {
            return false;
        }
        options = new AgentOptions(o.help(), o.policy(), false, o.judge(), o.launcher());
        return true;
    }

    /**
     * Before {@code ProcessBuilder.start(Redirect[])}, which every start goes through: makes sure
     * ProcessImpl carries the gate (retransforming it the first time), and refuses every start
     * when it cannot.
     */
    public static void ready() throws IOException {
        if (LazyTransformer.processImplDone()) {
            return;
        }
        synchronized (Gate.class) {
            if (!LazyTransformer.processImplDone()) {
                LazyTransformer.arm();
                try {
                    // loads it if needed (and the armed transformer changes it); else changes it now
                    Class<?> impl = Class.forName("java.lang.ProcessImpl", false, null);
                    if (!LazyTransformer.processImplDone() && instrumentation != null) {
                        instrumentation.retransformClasses(impl);
                    }
                } catch (Exception | LinkageError e) {
                    LazyTransformer.report(LazyTransformer.PROCESS_IMPL, e);
                }
            }
        }
        if (!LazyTransformer.processImplDone()) {
            throw refusal.refused("agent-error", "error", "the agent could not instrument"
                    + " java.lang.ProcessImpl, so it cannot judge any process; none is started");
        }
    }

    /**
     * Before {@code ProcessImpl.start}: {@code env} and {@code dir} are null when inherited;
     * {@code redirects} are the standard streams' (null when none was set).
     */
    public static void start(String[] argv, Map<String, String> env, String dir, ProcessBuilder.Redirect[] redirects)
            throws IOException {
        if (INSIDE.get() != null) {
            return;
        }
        INSIDE.set(Boolean.TRUE);
        try {
            ProcessOutcome refused = decide(Arrays.asList(argv), env, dir, redirects);
            if (refused != null) {
                throw refusal.refused(refused.rule(), refused.tier(), refused.message());
            }
        } finally {
            INSIDE.remove();
        }
    }

    /**
     * Starts a process of the gate's own (the judge server, from any thread of the agent's) without
     * judging it: the gate would otherwise judge its own server start, refuse it as an ask, and
     * leave every later start unjudged by a server. Nothing else is let through this way.
     */
    static Process startOwn(ProcessBuilder pb) throws IOException {
        boolean outer = INSIDE.get() == null;
        INSIDE.set(Boolean.TRUE);
        try {
            return pb.start();
        } finally {
            if (outer) {
                INSIDE.remove();
            }
        }
    }

    /** Before {@code ProcessBuilder.startPipeline}: refuses the whole pipeline before any stage starts. */
    public static void startPipeline(List<ProcessBuilder> builders) throws IOException {
        if (INSIDE.get() != null || builders == null) {
            return;
        }
        INSIDE.set(Boolean.TRUE);
        try {
            for (int i = 0; i < builders.size(); i++) {
                ProcessBuilder b = builders.get(i);
                if (b == null || b.command().isEmpty()) {
                    continue;
                }
                // environment() gives the builder a copy of the JVM's environment if it had none:
                // the same variables the stage would have inherited
                ProcessOutcome refused = decide(b.command(), b.environment(), b.directory() == null ? null : b.directory().getPath(),
                        new ProcessBuilder.Redirect[] {b.redirectInput(), b.redirectOutput(), b.redirectError()});
                if (refused != null) {
                    throw refusal.refused(refused.rule(), refused.tier(), "pipeline stage " + (i + 1)
                            + " of " + builders.size() + " (" + b.command().get(0) + "), so no stage was started: "
                            + refused.message());
                }
            }
        } finally {
            INSIDE.remove();
        }
    }

    /** The refusal for a process, or null when it may start. */
    private static ProcessOutcome decide(List<String> argv, Map<String, String> env, String dir,
            ProcessBuilder.Redirect[] redirects) {
        Path cwd = dir == null ? JVM_DIRECTORY : JVM_DIRECTORY.resolve(dir);
        ProcessOutcome outcome;
        if (!(dir == null ? JVM_DIRECTORY_FILE : cwd.toFile()).isDirectory()) {
            // nothing can be judged in a directory that is not there; and it is no reason to let
            // the process start unjudged: the JDK does not change directory for an inherited one,
            // so the child would run in the deleted directory, and a named one may appear before
            // the child changes into it
            outcome = ProcessOutcome.error("no-directory", (dir == null ? "this JVM's working directory " : "the directory ")
                    + cwd + " does not exist (or is not a directory), so the process cannot be judged there; it was not started");
        } else {
            try {
                Map<String, String> jvmEnv = System.getenv();
                JudgeLine line = CommandLines.of(argv, cwd, jvmEnv.get("PATH"));
                Map<String, String> live = jvmEnv;
                if (env != null && !env.equals(jvmEnv)) {
                    // what the tool changed is judged as assignments in front of the command
                    Map<String, String> assigned = CommandLines.assigned(env, jvmEnv);
                    line = CommandLines.withAssignments(line, assigned);
                    live = CommandLines.before(env, jvmEnv, assigned);
                }
                line = CommandLines.withRedirects(line, redirects, JVM_DIRECTORY);
                outcome = backend().decide(line, live, cwd);
            } catch (Throwable t) {
                outcome = ProcessOutcome.error("judge-error", "the process could not be judged (" + t + "), so it was not started");
            }
        }
        if (outcome.runs()) {
            return null;
        }
        if (options.audit()) {
            System.err.println("shellgate: audit: would refuse (" + outcome.rule() + "): " + outcome.message() + ": "
                    + String.join(" ", argv));
            return null;
        }
        return outcome;
    }

    private static Backend backend() throws Exception {
        Backend b = backend;
        return b != null ? b : createBackend();
    }

    private static synchronized Backend createBackend() throws Exception {
        if (backend == null) {
            AgentOptions o = options;
            boolean inProcess = switch (o.judge()) {
                case "in-process" -> true;
                case "server" -> false;
                default -> InProcessBackend.supported();
            };
            backend = inProcess ? InProcessBackend.create(o, instrumentation) : ServerBackend.create(o);
        }
        return backend;
    }
}
