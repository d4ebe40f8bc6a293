package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rewritten-snapshot world of Codex (issue 28): every line reaches the judge and the shell in
 * Codex 0.169's snapshot envelope ({@code agents/codex-shells.txt}: save its variables, {@code . SNAPSHOT},
 * restore them, its {@code codex-path} folder first on {@code PATH}, {@code exec '/bin/bash' -c 'COMMAND'}).
 * The world holds the snapshot Codex's own script makes (run here with bash as Codex runs it at
 * start; its NUL-separated sections joined as Codex writes them: options and functions, aliases, one
 * {@code declare -x} a variable), and copies the agent's edit tool rewrote, each to do one thing when
 * the envelope sources it or when the command runs: run a program ({@code touch}), read a secret with
 * a builtin ({@code secret}), connect out through {@code /dev/tcp} ({@code connect}), export functions
 * named as the command's programs, which the shell it execs takes in ({@code function}), put a folder
 * of look-alike scripts first in {@code PATH} ({@code path}), or export {@code BASH_ENV}, which that
 * shell sources before the command ({@code bashenv}). Aliases are not among them: the exec'd shell
 * starts without the snapshot's aliases and functions (exported functions aside).
 *
 * <p>The clean snapshot wraps every common bash line; each rewritten one every probe and a sample of
 * the common lines, as {@link SnapshotFixture} does: a refused envelope is judged as its whole text
 * (about 38 KB).
 */
final class CodexSnapshotFixture implements HostileFixtures.Fixture {

    private static final String UUID = "0199aa5e-3c1d-7f00-9a4b-0123456789ab";
    private static final String EXEC = "exec '/bin/bash' -c 'ls -la'";
    private static final List<String> REFUSED = List.of("touch", "secret", "connect", "bashenv", "function");
    private static final List<String> SHADOWING = List.of("path");
    private static final int SHARE = 16;
    /** The programs the {@code function} snapshot exports functions of. */
    private static final List<String> SHADOWED = List.of("git", "find", "grep", "cat", "head", "tail", "less", "ls", "mvn",
            "pip", "pip3", "python3");
    private static final Pattern TRAP = Pattern.compile(" \\[codex snapshot ([a-z]+)\\]$");

    /** Codex's command envelope with this world's home and install, up to its {@code exec}, once planted. */
    private String preamble;

    @Override
    public String name() {
        return "codex-snapshot";
    }

    @Override
    public String agent() {
        return "codex";
    }

    @Override
    public List<String> probes() {
        return List.of("ls -la", "git status", "git log --oneline -1", "cat a.txt", "head -n 1 README.md", "tail -n 1 b.txt",
                "grep -n foo a.txt", "find src -name '*.c'");
    }

    @Override
    public List<String> traps() {
        List<String> all = new ArrayList<>(REFUSED);
        all.addAll(SHADOWING);
        return all;
    }

    @Override
    public String trap(Candidate c) {
        Matcher m = TRAP.matcher(c.origin());
        return m.find() && !m.group(1).equals("clean") ? m.group(1) : null;
    }

    @Override
    public void plant(World w) throws IOException, InterruptedException {
        Path install = w.root.resolve("npm");
        Path pkg = Files.createDirectories(install.resolve("node_modules/@openai/codex"));
        Files.createDirectories(install.resolve("node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path"));
        w.extra.put("CODEX_MANAGED_PACKAGE_ROOT", pkg.toString());
        Map<String, String> captured = captured();
        String envelope = captured.get("__CODEX_SNAPSHOT_OVERRIDE_SET_0=").replace("$ROOT/home", w.home.toString())
                .replace("$INSTALL", install.toString());
        if (!envelope.endsWith("\n\n" + EXEC) || !envelope.contains("$UUID.$N.sh")) {
            throw new IOException("Codex's captured envelope does not end in " + EXEC + " or names no snapshot");
        }
        preamble = envelope.substring(0, envelope.length() - EXEC.length());
        w.envelopeShells.add("/bin/bash");
        String real = snapshot(w, captured.get("if [ -z \"${BASH_ENV-}\" ]"));
        String pathLine = "declare -x PATH=\"" + World.PATH + "\"\n";
        if (!real.startsWith("# Snapshot file\n") || !real.contains(pathLine)) {
            throw new IOException("Codex's snapshot script wrote an unexpected snapshot:\n" + real);
        }
        Map<String, String> snapshots = new LinkedHashMap<>();
        snapshots.put("clean", real);
        snapshots.put("touch", real + HostileFixtures.marker(w, "codex-touch") + "\n");
        snapshots.put("secret", real + "read -r _ < " + w.home.resolve(".ssh/id_rsa") + " || true\n");
        snapshots.put("connect", real + ": < /dev/tcp/127.0.0.1/9\n");
        Path bashEnv = w.home.resolve(".oracle-bash-env");
        World.write(bashEnv, HostileFixtures.marker(w, "codex-bashenv") + "\n");
        snapshots.put("bashenv", real + "declare -x BASH_ENV=\"" + bashEnv + "\"\n");
        StringBuilder functions = new StringBuilder();
        for (String p : SHADOWED) {
            functions.append(p).append(" () \n{ \n    ").append(HostileFixtures.marker(w, "codex-function"))
                    .append(";\n    command ").append(p).append(" \"$@\"\n}\ndeclare -fx ").append(p).append('\n');
        }
        snapshots.put("function", real + functions);
        Path bin = SnapshotFixture.lookAlikes(w, "codex-path");
        snapshots.put("path", real.replace(pathLine, "declare -x PATH=\"" + bin + ":" + World.PATH + "\"\n"));
        Path dir = w.home.resolve(".codex/shell_snapshots");
        for (Map.Entry<String, String> s : snapshots.entrySet()) {
            World.write(dir.resolve(file(s.getKey())), s.getValue());
        }
        // the clean envelope must be Codex's as the judge knows it, or this world tests the whole-text path only
        JudgeRequest probe = new JudgeRequest(wrapped(new Candidate("ls -la", Dialect.BASH, "check"), "clean").line(),
                Dialect.BASH, w.proj, w.environment());
        if (Envelopes.unwrap("codex", probe).isEmpty()) {
            throw new IOException("the judge does not recognise Codex's envelope around the clean snapshot:\n" + real);
        }
    }

    /** Each bash line in Codex's envelope: every one with the clean snapshot, a sample with the rewritten ones. */
    @Override
    public List<Candidate> wrap(World w, List<Candidate> lines) {
        List<Candidate> out = new ArrayList<>();
        int i = 0;
        for (Candidate c : lines) {
            if (c.dialect() != Dialect.BASH) {
                continue;
            }
            boolean probe = c.origin().startsWith("probe of ");
            out.add(wrapped(c, "clean"));
            for (int k = 0; k < REFUSED.size(); k++) {
                if (probe || i % SHARE == k) {
                    out.add(wrapped(c, REFUSED.get(k)));
                }
            }
            for (int k = 0; k < SHADOWING.size(); k++) {
                if (probe || i % (SHARE / 2) == REFUSED.size() % (SHARE / 2) + k) {
                    out.add(wrapped(c, SHADOWING.get(k)));
                }
            }
            i++;
        }
        return out;
    }

    private Candidate wrapped(Candidate c, String snapshot) {
        // Codex quotes the command for sh: a quote ends the quoted text, is given in double quotes, and it goes on
        String quoted = "'" + c.line().replace("'", "'\"'\"'") + "'";
        String text = preamble.replace("$UUID.$N.sh", file(snapshot)) + "exec '/bin/bash' -c " + quoted;
        return new Candidate(text, Dialect.BASH, c.origin() + " [codex snapshot " + snapshot + "]",
                c.line() + "  [codex envelope, snapshot " + snapshot + "]");
    }

    /** The snapshot file of a variant: Codex names them by session and a number. */
    private static String file(String snapshot) {
        int n = List.of("clean", "touch", "secret", "connect", "bashenv", "function", "path").indexOf(snapshot);
        return UUID + "." + (1764600000000000000L + n) + ".sh";
    }

    /**
     * Runs Codex's snapshot script with bash in the world's environment and writes its output as
     * Codex does: the sections up to the exports as they are, then each export's declaration.
     */
    private static String snapshot(World w, String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", script).directory(w.proj.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.environment().clear();
        pb.environment().putAll(w.environment());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("Codex's snapshot script failed: " + err);
        }
        String[] parts = out.split("\0", -1);
        if (parts.length < 4) {
            throw new IOException("Codex's snapshot script printed no sections: " + out);
        }
        StringBuilder text = new StringBuilder(parts[0]).append(parts[1]);
        // the exports: a name, then its declaration, until an empty name
        for (int i = 2; i + 1 < parts.length && !parts[i].isEmpty(); i += 2) {
            text.append(parts[i + 1].strip()).append('\n');
        }
        return text.toString();
    }

    /** The {@code -c} texts of Codex's captured shells, by how they start: its snapshot script and its envelope. */
    private static Map<String, String> captured() {
        Map<String, String> out = new LinkedHashMap<>();
        for (CapturedShells.Shell shell : CapturedShells.read("/agents/codex-shells.txt")) {
            for (String start : List.of("__CODEX_SNAPSHOT_OVERRIDE_SET_0=", "if [ -z \"${BASH_ENV-}\" ]")) {
                if (shell.program().equals("/bin/bash") && shell.last().startsWith(start)) {
                    out.putIfAbsent(start, shell.last());
                }
            }
        }
        if (out.size() != 2) {
            throw new IllegalStateException("agents/codex-shells.txt holds no snapshot envelope or no snapshot script");
        }
        return out;
    }
}
