package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.nio.file.Path;
import java.util.Map;

/** Where Codex keeps its shell snapshots and its helper programs, checked against the environment. */
final class CodexPlaces {

    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    private static final Pattern CODEX_PATH = Pattern.compile(
            "(/.*)/@openai/codex-(?:linux|darwin)-(?:x64|arm64)/vendor/(?:x86_64|aarch64)-(?:unknown-linux-musl|apple-darwin)/codex-path");

    private CodexPlaces() {}

    /**
     * The snapshot file {@code text} names, when it is in Codex's home ({@code $CODEX_HOME}, else
     * {@code ~/.codex}) under {@code shell_snapshots}, named by a session id and {@code suffix}, and
     * absent or Codex's own (a regular file of this user, reached without links); else null.
     */
    static Path snapshot(String text, String suffix, Map<String, String> env) {
        Path file = AgentFiles.absolute(text);
        Path home = AgentFiles.home(env);
        String configured = env.get("CODEX_HOME");
        boolean custom = configured != null && !configured.isEmpty();
        Path codexHome = custom ? AgentFiles.absolute(configured) : home == null ? null : home.resolve(".codex");
        if (file == null || codexHome == null || !file.getParent().equals(codexHome.resolve("shell_snapshots"))
                || !Pattern.matches(UUID + suffix, file.getFileName().toString())) {
            return null;
        }
        return AgentFiles.absentOrOwnBelow(custom ? codexHome : home, file) ? file : null;
    }

    /**
     * Whether {@code dir} is the {@code codex-path} folder of the Codex package the npm launcher
     * named in {@code CODEX_MANAGED_PACKAGE_ROOT} ({@code …/node_modules/@openai/codex}): its
     * platform package lies beside it or in its own {@code node_modules}. The folder is first on
     * the command's PATH, so it must be the install's, not a folder of anyone's choosing.
     */
    static boolean isCodexPath(String dir, Map<String, String> env) {
        Path path = AgentFiles.absolute(dir);
        String root = env.get("CODEX_MANAGED_PACKAGE_ROOT");
        Path pkg = root == null ? null : AgentFiles.absolute(root);
        Matcher m = path == null ? null : CODEX_PATH.matcher(dir);
        if (m == null || pkg == null || !m.matches() || !pkg.endsWith(Path.of("node_modules", "@openai", "codex"))) {
            return false;
        }
        Path modules = Path.of(m.group(1));
        boolean installed = modules.equals(pkg.getParent().getParent()) || modules.equals(pkg.resolve("node_modules"));
        return installed && AgentFiles.absentOrInstalled(path);
    }
}
