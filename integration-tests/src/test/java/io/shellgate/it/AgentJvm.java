package io.shellgate.it;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A target JVM (JDK 17 or 25) running the test tool AgentTarget with the built agent jar.
 *
 * @param feature the Java version
 * @param java the JDK's home
 * @param judge the agent's judge option: {@code server} or {@code in-process}
 */
record AgentJvm(int feature, Path java, String judge) {

    private static final Path TARGET_CLASSES = Path.of("target/agent-target").toAbsolutePath();

    static Path agentJar() {
        String path = System.getProperty("shellgate.agent");
        if (path == null) {
            throw new IllegalStateException("run through Maven: the system property shellgate.agent names the agent jar");
        }
        return Path.of(path).toAbsolutePath().normalize();
    }

    /** Compiles the target tool for Java 17 with the JDK 17 compiler, once (again when its source changed). */
    static synchronized Path targetClasses() throws Exception {
        Path source = Path.of("src/test/resources/agent-target/AgentTarget.java").toAbsolutePath();
        Path compiled = TARGET_CLASSES.resolve("AgentTarget.class");
        if (!Files.isRegularFile(compiled) || Files.getLastModifiedTime(compiled).compareTo(Files.getLastModifiedTime(source)) < 0) {
            Processes.Result r = Processes.run(List.of(LauncherScriptTest.jdk("17").resolve("bin/javac").toString(),
                    "--release", "17", "-d", TARGET_CLASSES.toString(), source.toString()), null, (String) null, null);
            if (r.code() != 0) {
                throw new IllegalStateException("cannot compile AgentTarget: " + r);
            }
        }
        return TARGET_CLASSES;
    }

    static AgentJvm of(int feature, String judge) throws Exception {
        return new AgentJvm(feature, LauncherScriptTest.jdk(Integer.toString(feature)), judge);
    }

    @Override
    public String toString() {
        return "java " + feature() + ", judge " + judge;
    }

    /** Runs {@code AgentTarget ARGS} with the agent and {@code options} in the sandbox. */
    Processes.Result run(Sandbox box, String options, String... args) throws Exception {
        return run(box, box.env, options, List.of(), args);
    }

    Processes.Result run(Sandbox box, Map<String, String> env, String options, List<String> jvmFlags, String... args)
            throws Exception {
        return runIn(box.work, box, env, options, jvmFlags, args);
    }

    /** Starts {@code AgentTarget ARGS} with the agent in the sandbox, for a test that talks to it. */
    Process start(Sandbox box, String... args) throws Exception {
        return Processes.start(command(box, "", List.of(), args), box.env, box.work);
    }

    /** The same, with {@code cwd} as the JVM's working directory. */
    Processes.Result runIn(Path cwd, Sandbox box, Map<String, String> env, String options, List<String> jvmFlags,
            String... args) throws Exception {
        Processes.Result r = Processes.run(command(box, options, jvmFlags, args), env, (String) null, cwd);
        AgentTransformationErrors.check(r.err());
        return r;
    }

    private List<String> command(Sandbox box, String options, List<String> jvmFlags, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(java.resolve("bin/java").toString());
        command.add("-Xshare:auto");
        command.addAll(jvmFlags);
        String agentOptions = "judge=" + judge + ",launcher=" + Processes.launcher() + (options.isEmpty() ? "" : "," + options);
        command.add("-javaagent:" + agentJar() + "=" + agentOptions);
        command.add("-cp");
        command.add(targetClasses().toString());
        command.add("AgentTarget");
        command.addAll(List.of(args));
        return command;
    }
}
