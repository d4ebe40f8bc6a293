package io.shellgate.interceptor.internal;

import io.shellgate.client.RunDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * Judges in this JVM (Java 25+, the judge's own level). The judge and its libraries travel inside
 * the agent jar under {@value #LIB}; they are copied once to the cache directory and loaded by a
 * class loader of their own whose parent is the platform loader, so the host's classes and theirs
 * never meet. The two sides talk through JDK types only.
 */
final class InProcessBackend implements Backend {

    static final String LIB = "META-INF/shellgate/lib/";
    private static final String JUDGE = "io.shellgate.interceptor.internal.inprocess.InProcessJudge";

    private final Function<Object[], Object[]> judge;
    private final OriginInfo origin = OriginInfo.current();
    /** Allows the judge offered for reuse; each one's handle logs the starts made on it. */
    private final ReusedAllows reused = new ReusedAllows(InProcessBackend::log);

    private InProcessBackend(Function<Object[], Object[]> judge) {
        this.judge = judge;
    }

    static boolean supported() {
        return Runtime.version().feature() >= AgentOptions.IN_PROCESS_JAVA;
    }

    @SuppressWarnings("unchecked")
    static InProcessBackend create(AgentOptions options, Instrumentation instrumentation) throws Exception {
        if (!supported()) {
            throw new IllegalStateException("the in-process judge needs Java " + AgentOptions.IN_PROCESS_JAVA + "+, this JVM is "
                    + Runtime.version().feature() + " (use judge=server or judge=auto)");
        }
        Path jar = OriginInfo.agentJar();
        if (jar == null) {
            throw new IllegalStateException("the agent was not loaded from its jar, so the judge inside it cannot be found");
        }
        List<Path> judgeJars = extract(jar);
        URL[] urls = new URL[judgeJars.size()];
        // the jars this JVM keeps open, which the judge marks close-on-exec
        List<String> open = new ArrayList<>(List.of(jar.toString()));
        for (int i = 0; i < urls.length; i++) {
            urls[i] = judgeJars.get(i).toUri().toURL();
            open.add(judgeJars.get(i).toString());
        }
        URLClassLoader loader = new URLClassLoader("shellgate-judge", urls, ClassLoader.getPlatformClassLoader());
        Class<?> c = Class.forName(JUDGE, true, loader);
        return new InProcessBackend((Function<Object[], Object[]>) c.getConstructor(String.class, List.class)
                .newInstance(options.policy(), open));
    }

    /**
     * The judge's answer; or, for a request whose allow the judge offered for reuse, that allow
     * without judging, when every file fact it rests on gets the same answer (the start is logged
     * within {@value ReusedAllows#SEND_MILLIS} ms, or at exit).
     */
    @Override
    public ProcessOutcome decide(JudgeLine line, Map<String, String> env, Path cwd) {
        ReusedAllows.Request request = new ReusedAllows.Request(line, env, cwd);
        ProcessOutcome known = reused.reuse(request);
        if (known != null) {
            return known;
        }
        Object[] out = judge.apply(new Object[] {line.command(), cwd.toString(), env, origin.pid(), origin.detail(),
            origin.session(), line.argv()});
        ProcessOutcome outcome = new ProcessOutcome((Boolean) out[0], (String) out[1], (String) out[2], (String) out[3]);
        // a refusal for a broken policy has no fifth and sixth
        if (out.length == 6 && out[4] instanceof List<?> facts && out[5] instanceof Consumer<?>) {
            reused.offer(request, outcome, facts, out[5]);
        }
        return outcome;
    }

    /** Logs starts on reused allows through each one's handle, the judge's logger of them. */
    @SuppressWarnings("unchecked")
    private static void log(List<ReusedAllows.Batch> batches, boolean atExit) {
        for (ReusedAllows.Batch b : batches) {
            ((Consumer<long[]>) b.handle()).accept(b.times());
        }
    }

    /** Copies the nested jars to the cache, under a name made from their checksums, once. */
    private static List<Path> extract(Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            List<JarEntry> entries = new ArrayList<>();
            long key = 17;
            for (Enumeration<JarEntry> e = file.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().startsWith(LIB) && entry.getName().endsWith(".jar")) {
                    entries.add(entry);
                    key = key * 31 + entry.getName().hashCode();
                    key = key * 31 + entry.getCrc();
                    key = key * 31 + entry.getSize();
                }
            }
            if (entries.isEmpty()) {
                throw new IOException(jar + " holds no judge (" + LIB + "); rebuild the agent jar");
            }
            Path dir = cacheDirectory().resolve("agent-" + Long.toHexString(key));
            Files.createDirectories(dir);
            List<Path> jars = new ArrayList<>();
            for (JarEntry entry : entries) {
                Path target = dir.resolve(entry.getName().substring(LIB.length()));
                if (!Files.isRegularFile(target) || Files.size(target) != entry.getSize()) {
                    Path temp = Files.createTempFile(dir, ".extract-", ".tmp");
                    try (InputStream in = file.getInputStream(entry)) {
                        Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
                        Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    } finally {
                        Files.deleteIfExists(temp);
                    }
                }
                jars.add(target);
            }
            return jars;
        }
    }

    /** {@code $SHELLGATE_CACHE_DIR}, else {@code $XDG_CACHE_HOME/shellgate}, else {@code ~/.cache/shellgate}. */
    static Path cacheDirectory() {
        // decided as io.shellgate.rules.Places#cache decides it, which the agent's core cannot load
        Map<String, String> env = System.getenv();
        Path explicit = RunDirectory.absolute(env.get("SHELLGATE_CACHE_DIR"));
        if (explicit != null) {
            return explicit;
        }
        Path xdg = RunDirectory.absolute(env.get("XDG_CACHE_HOME"));
        return xdg != null ? xdg.resolve("shellgate") : RunDirectory.home(env).resolve(".cache").resolve("shellgate");
    }
}
