package io.shellgate.judge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A user's machine in a temporary folder as the agents leave it: a HOME with Claude Code's and
 * Codex's snapshot files, a TMPDIR, and the npm install folder of the agents; and the shell texts
 * captured from the real agents ({@code envelopes/*-shells.txt}, copied from integration-tests)
 * with their placeholders filled in for this machine.
 */
final class EnvelopeSite {

    static final String CLAUDE_SNAPSHOT_NAME = "snapshot-bash-1764600000000-k3x9qa.sh";
    static final String CWD_NAME = "claude-a1b2-cwd";
    static final String GEMINI_DIR_NAME = "gemini-shell-Ab12Cd";
    static final String UUID = "0199aa5e-3c1d-7f00-9a4b-0123456789ab";
    static final String NANOS = "1764600000123456789";
    static final String COPILOT_MARKER = "19ae4c0f3b2_7d3f9a61";

    final Path root;
    final Path home;
    final Path tmp;
    final Path install;
    final Path claudeSnapshot;
    final Path codexSnapshot;
    final Path codexPath;
    final Map<String, String> env = new HashMap<>();

    EnvelopeSite(Path root) {
        try {
            this.root = root.toRealPath();
            home = Files.createDirectories(this.root.resolve("home"));
            tmp = Files.createDirectories(this.root.resolve("tmp"));
            install = Files.createDirectories(this.root.resolve("install"));
            claudeSnapshot = write(home.resolve(".claude/shell-snapshots/" + CLAUDE_SNAPSHOT_NAME),
                    "# Snapshot file\nunalias -a 2>/dev/null || true\nexport PATH=/usr/bin:/bin\n");
            codexSnapshot = write(home.resolve(".codex/shell_snapshots/" + UUID + "." + NANOS + ".sh"),
                    "# Snapshot file\n# Functions\n\n# setopts 0\n# aliases 0\ndeclare -x PATH=\"/usr/bin:/bin\"\n");
            Files.createDirectories(install.resolve("node_modules/@openai/codex"));
            codexPath = Files.createDirectories(install.resolve(
                    "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex-path"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        env.put("HOME", home.toString());
        env.put("PATH", "/usr/bin:/bin");
        env.put("TMPDIR", tmp.toString());
        env.put("CODEX_MANAGED_PACKAGE_ROOT", install.resolve("node_modules/@openai/codex").toString());
    }

    static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    /** A request for {@code text} in this site's environment, as a fresh bash gets it. */
    JudgeRequest request(String text) {
        return new JudgeRequest(text, Dialect.BASH, root, env, List.of(), true);
    }

    /** The text with the captures' placeholders filled in for this site. */
    String fill(String text) {
        return text.replace("$ROOT/home", home.toString())
                .replace("$INSTALL", install.toString())
                .replace("/tmp/claude-$R-cwd", tmp + "/" + CWD_NAME)
                .replace("/tmp/gemini-shell-$R/", tmp + "/" + GEMINI_DIR_NAME + "/")
                .replace("snapshot-bash-$N-$R.sh", CLAUDE_SNAPSHOT_NAME)
                .replace("CLAUDE_CODE_END_$R", "CLAUDE_CODE_END_q1w2e3r4t5y6u7i8")
                .replace("$UUID.tmp-$N", UUID + ".tmp-" + NANOS)
                .replace("$UUID.$N.sh", UUID + "." + NANOS + ".sh")
                .replace("__copilot_login_env_snapshot_$N_$R__", "__copilot_login_env_snapshot_" + COPILOT_MARKER + "__");
    }

    /** The command texts ({@code -c} arguments) of every shell in a captured file, in order, filled in. */
    List<String> captured(String agent) {
        String text;
        try (var in = EnvelopeSite.class.getResourceAsStream("/envelopes/" + agent + "-shells.txt")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        for (String entry : text.split("(?m)^=== exec ")) {
            if (entry.isEmpty()) {
                continue;
            }
            List<String> argv = argv(entry);
            int c = argv.indexOf("-c") >= 0 ? argv.indexOf("-c") : argv.indexOf("-lc");
            if (c >= 0) {
                out.add(fill(argv.getLast()));
            }
        }
        return out;
    }

    private static List<String> argv(String entry) {
        String body = entry.substring(entry.indexOf('\n') + 1, entry.lastIndexOf("\nenv "));
        String[] pieces = body.split("(?m)^argv\\[\\d+\\] = ", -1);
        List<String> argv = new ArrayList<>();
        for (int i = 1; i < pieces.length; i++) {
            // each value but the last ends with the newline before the next "argv[i] = "
            String p = pieces[i];
            argv.add(i < pieces.length - 1 ? p.substring(0, p.length() - 1) : p);
        }
        return argv;
    }
}
