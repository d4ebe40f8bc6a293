package io.shellgate.launcher.internal;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.shellgate.launcher.internal.cli.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code shellgate attach PID}: loads shellgate's javaagent into a running JVM through the Attach
 * API, after checking the JVM's Java and the agent's options, and checks afterwards that the
 * agent is installed there.
 */
@Command(name = "attach", mixinStandardHelpOptions = true,
        description = {"Loads shellgate's javaagent into a running JVM of this user.",
            "Every process the JVM starts from then on (ProcessBuilder, Runtime.exec) is",
            "judged and reviewed first; processes it started before are not affected."},
        footer = {"", "The JVM must run Java 17 or newer and allow attaching (not",
            "-XX:+DisableAttachMechanism). Java 21 and newer print a warning for an agent",
            "loaded this way (-XX:+EnableDynamicAgentLoading silences it), and",
            "-XX:-EnableDynamicAgentLoading refuses it. Attaching to a JVM that carries",
            "the agent already changes nothing, except that mode=audit becomes",
            "mode=enforce unless the options say mode=audit.",
            "", "Exit code: 0 the JVM carries the agent; 2 usage error or options the agent",
            "refuses; 4 it could not be attached."})
public final class AttachCommand implements Callable<Integer> {

    private static final String AGENT = "io.shellgate.interceptor.Agent";

    @Parameters(paramLabel = "PID", description = "The process id of the JVM.")
    long pid;

    @Option(names = "--javaagent", paramLabel = "JAR",
            description = {"The agent jar (default: $SHELLGATE_AGENT_JAR, else",
                "shellgate-agent.jar next to the launcher)."})
    String jar;

    @Option(names = "--options", paramLabel = "OPTIONS",
            description = {"The agent's options, as after -javaagent:JAR=",
                "(policy=FILE, mode=audit, judge=server; see",
                "java -javaagent:JAR=help -version). launcher=",
                "defaults to this launcher, which starts the judge",
                "server."})
    String options;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        String self = System.getenv("SHELLGATE_LAUNCHER");
        Path agentJar;
        try {
            agentJar = AgentJar.find(jar, self, "--javaagent");
        } catch (IllegalArgumentException e) {
            err.println("shellgate attach: " + e.getMessage());
            return ExitCode.USAGE.code();
        }
        String arguments = options == null ? "" : options.strip();
        boolean launcherNamed = false;
        for (String item : arguments.split(",")) {
            launcherNamed |= item.strip().startsWith("launcher=");
        }
        if (self != null && !launcherNamed) {
            arguments = arguments.isEmpty() ? "launcher=" + self : arguments + ",launcher=" + self;
        }
        if (pid <= 0 || pid == ProcessHandle.current().pid()) {
            err.println("shellgate attach: " + pid + " is not the process id of another JVM");
            return ExitCode.USAGE.code();
        }
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            err.println("shellgate attach: cannot attach to process " + pid + ": " + e.getMessage()
                    + " (it must be a running JVM of this user that allows attaching)");
            return ExitCode.ERROR.code();
        } catch (LinkageError e) {
            err.println("shellgate attach: this Java has no Attach API (the jdk.attach module); run shellgate with a full JDK");
            return ExitCode.ERROR.code();
        }
        try {
            return attach(vm, agentJar, arguments, out, err);
        } finally {
            try {
                vm.detach();
            } catch (IOException e) {
                // the agent is loaded or not by now; the connection goes with this process anyway
            }
        }
    }

    private int attach(VirtualMachine vm, Path agentJar, String arguments, PrintWriter out, PrintWriter err) {
        String where = "JVM " + pid;
        Properties before;
        try {
            before = vm.getSystemProperties();
        } catch (IOException e) {
            err.println("shellgate attach: cannot read the system properties of " + where + ": " + e.getMessage());
            return ExitCode.ERROR.code();
        }
        int java = javaFeature(before.getProperty("java.specification.version"));
        where += " (Java " + before.getProperty("java.specification.version") + ")";
        AgentAnswer answer;
        try {
            answer = ask(agentJar, arguments, java);
        } catch (IllegalStateException e) {
            err.println("shellgate attach: " + e.getMessage());
            return ExitCode.USAGE.code();
        }
        if (answer.problem() != null) {
            err.println("shellgate attach: not attached to " + where + ": " + answer.problem());
            return ExitCode.USAGE.code();
        }
        // loaded even when the JVM says it has the agent (any code there can set a property): an
        // agent that is there already does nothing the second time
        String had = before.getProperty(answer.property());
        try {
            vm.loadAgent(agentJar.toString(), arguments);
        } catch (AgentInitializationException e) {
            err.println("shellgate attach: the agent failed to start in " + where + " (its reason is on that JVM's"
                    + " standard error); the JVM does not judge its processes");
            return ExitCode.ERROR.code();
        } catch (AgentLoadException | IOException e) {
            err.println("shellgate attach: " + where + " did not load the agent: " + e.getMessage());
            return ExitCode.ERROR.code();
        }
        String mode;
        try {
            mode = vm.getSystemProperties().getProperty(answer.property());
        } catch (IOException e) {
            mode = null;
        }
        if (mode == null) {
            err.println("shellgate attach: " + where + " loaded the agent but does not report it installed");
            return ExitCode.ERROR.code();
        }
        if (had != null && had.equals(mode)) {
            // most likely an agent that was there (which the second one left as it was); possibly
            // only a property someone set, in which case the agent is there now
            out.println("shellgate attach: " + where + " carries shellgate's agent (" + mode + "), and said so before"
                    + " this attach too");
        } else if (had != null) {
            out.println("shellgate attach: " + where + " carried shellgate's agent already (" + had + "), now " + mode
                    + "; its other options are unchanged");
        } else {
            out.println("shellgate attach: " + where + " carries shellgate's agent (" + mode + "): every process it starts"
                    + " from now on is judged first");
        }
        return ExitCode.ALLOW.code();
    }

    /** {@code 17} for "17", {@code 8} for "1.8"; 0 when unreadable. */
    static int javaFeature(String specificationVersion) {
        if (specificationVersion == null) {
            return 0;
        }
        String v = specificationVersion.startsWith("1.") ? specificationVersion.substring(2) : specificationVersion;
        int dot = v.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * What the agent jar about to be loaded says about attaching with these options (null when
     * nothing is wrong), and the system property it sets once installed.
     */
    private record AgentAnswer(String problem, String property) {}

    private static AgentAnswer ask(Path agentJar, String arguments, int java) {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {agentJar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> agent = Class.forName(AGENT, false, loader);
            return new AgentAnswer((String) agent.getMethod("attachProblem", String.class, int.class).invoke(null, arguments, java),
                    (String) agent.getField("PROPERTY").get(null));
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(agentJar + " could not check the options: " + e.getCause(), e);
        } catch (ReflectiveOperationException | IOException | LinkageError | ClassCastException e) {
            throw new IllegalStateException(agentJar + " is not shellgate's agent jar, or not this version's (" + e + ")", e);
        }
    }
}
