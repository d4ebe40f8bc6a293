package io.shellgate.it.agents;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The pinned agents, installed once from npm into a cache folder keyed by their versions
 * ({@code ~/.cache/shellgate-it/agents/KEY}, or under the system property
 * {@code shellgate.agents.cache}), so that every later run is offline. npm runs no install scripts
 * here; Claude Code's one ({@code node install.cjs}, which puts its native binary in place of the
 * placeholder {@code bin/claude.exe}) and OpenCode's ({@code node postinstall.mjs}, the same for
 * {@code bin/opencode.exe}, and Kilo's the same for {@code bin/.kilo}) are run explicitly. Two builds that install at once wait on a
 * file lock; a half-finished install never counts, as it is moved into place only when complete.
 */
final class AgentInstall {

    /** Agents that need node: Gemini CLI's and Qwen Code's bundles use Node 20 APIs. */
    static final int NODE_MAJOR = 20;

    private static Path installed;

    private AgentInstall() {}

    /** Why the agents cannot run on this machine, or empty when they can. */
    static Optional<String> unavailable() {
        Optional<Path> node = onPath("node");
        if (node.isEmpty() || onPath("npm").isEmpty()) {
            return Optional.of("node and npm are not on PATH: install Node.js " + NODE_MAJOR + " or later (.ci/run does)");
        }
        String version = output(List.of(node.get().toString(), "--version")).strip();
        int major = Integer.parseInt(version.replaceFirst("^v(\\d+).*", "$1"));
        if (major < NODE_MAJOR) {
            return Optional.of("node " + version + " is too old for the pinned agents: install Node.js " + NODE_MAJOR + " or later");
        }
        return Optional.empty();
    }

    static Optional<Path> onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    /** The folder holding {@code node_modules/.bin/{claude,gemini,codex,qwen,copilot,opencode,kilo,pi}}, installing it first if needed. */
    @SuppressWarnings("try") // the lock is held for its scope, never read
    static synchronized Path get() throws IOException, InterruptedException {
        if (installed != null) {
            return installed;
        }
        String specs = String.join(" ", Agent.specs());
        Path root = Path.of(System.getProperty("shellgate.agents.cache",
                System.getProperty("user.home") + "/.cache/shellgate-it/agents"));
        Path dir = root.resolve(key(specs));
        Files.createDirectories(root);
        try (FileChannel channel = FileChannel.open(root.resolve(dir.getFileName() + ".lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
            if (!isReady(dir, specs)) {
                install(root, dir, specs);
            }
        }
        installed = dir;
        return dir;
    }

    private static boolean isReady(Path dir, String specs) throws IOException {
        Path ready = dir.resolve(".ready");
        return Files.isRegularFile(ready) && Files.readString(ready).equals(specs);
    }

    private static void install(Path root, Path dir, String specs) throws IOException, InterruptedException {
        Path partial = Files.createTempDirectory(root, dir.getFileName() + ".partial-");
        Files.writeString(partial.resolve("package.json"), "{\"name\": \"shellgate-agent-tests\", \"private\": true}\n");
        List<String> npm = new ArrayList<>(List.of("npm", "install", "--ignore-scripts", "--no-audit", "--no-fund",
                "--no-update-notifier", "--loglevel=error", "--save-exact"));
        npm.addAll(Agent.specs());
        run(npm, partial);
        run(List.of("node", "install.cjs"), partial.resolve("node_modules/@anthropic-ai/claude-code"));
        // OpenCode's bin is a placeholder its install script replaces with the platform's binary
        run(List.of("node", "postinstall.mjs"), partial.resolve("node_modules/opencode-ai"));
        // Kilo's the same (bin/.kilo from @kilocode/cli-linux-x64 or another platform package npm installed)
        run(List.of("node", "postinstall.mjs"), partial.resolve("node_modules/@kilocode/cli"));
        for (String bin : List.of("claude", "gemini", "codex", "qwen", "copilot", "opencode", "kilo", "pi")) {
            if (!Files.isExecutable(partial.resolve("node_modules/.bin/" + bin))) {
                throw new IllegalStateException("npm installed no executable " + bin + " in " + partial);
            }
        }
        Files.writeString(partial.resolve(".ready"), specs);
        if (Files.exists(dir)) {
            delete(dir);
        }
        Files.move(partial, dir, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void run(List<String> command, Path cwd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(cwd.resolve("install.log").toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
        if (!p.waitFor(20, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException("gave up after 20 minutes: " + command + " in " + cwd);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(command + " in " + cwd + " failed with " + p.exitValue() + ":\n"
                    + Files.readString(cwd.resolve("install.log")));
        }
    }

    private static String output(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String key(String specs) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(specs.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
