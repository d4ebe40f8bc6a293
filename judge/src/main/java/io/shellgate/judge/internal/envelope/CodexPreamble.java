package io.shellgate.judge.internal.envelope;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * The text Codex 0.169 puts before {@code exec} when its shell snapshot is ready: it saves
 * variables, sources the snapshot, restores each saved variable, and puts its {@code codex-path}
 * folder first on PATH.
 *
 * <p>Read in two steps: the save lines at the top give the variables and their order (each pair of
 * lines must name the same variable at the same index); then the whole preamble is written out
 * again from those names, the snapshot file and the folder, and must equal the text character for
 * character. So every {@code export} and {@code unset} restores exactly the variable it saved from.
 *
 * @param saved the variables Codex overrides (its own and the policy's), in order
 * @param proxies the proxy and certificate variables it keeps, in order
 * @param snapshot the snapshot file it sources
 * @param codexPath the folder it puts first on PATH
 */
record CodexPreamble(List<String> saved, List<String> proxies, String snapshot, String codexPath) {

    private static final String PLAIN = "__CODEX_SNAPSHOT_OVERRIDE";
    private static final String PROXY = "__CODEX_SNAPSHOT_PROXY_OVERRIDE";
    private static final Pattern SAVE = Pattern.compile(
            "(__CODEX_SNAPSHOT_(?:PROXY_)?OVERRIDE)_SET_([0-9]{1,4})=\"\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\+x\\}\"");
    private static final Pattern SOURCE = Pattern.compile("\nif \\. '([^'\\n]*)' >/dev/null 2>&1; then :; fi\n");
    private static final Pattern PATH = Pattern.compile(
            "if \\[ -n \"\\$\\{PATH:-\\}\" \\]; then export PATH='([^'\\n]*)':\"\\$PATH\"; else export PATH='([^'\\n]*)'; fi\n\n");

    /** The preamble at the start of {@code text}, or null when the text does not start with one. */
    static CodexPreamble read(String text) {
        List<String> saved = new ArrayList<>();
        List<String> proxies = new ArrayList<>();
        int at = 0;
        while (true) {
            int end = text.indexOf('\n', at);
            Matcher m = end < 0 ? null : SAVE.matcher(text.substring(at, end));
            if (m == null || !m.matches()) {
                break;
            }
            List<String> list = m.group(1).equals(PLAIN) ? saved : proxies;
            if (list == saved && !proxies.isEmpty() || Integer.parseInt(m.group(2)) != list.size()) {
                return null;
            }
            list.add(m.group(3));
            at = text.indexOf('\n', end + 1) + 1;
            if (at == 0) {
                return null;
            }
        }
        Matcher source = SOURCE.matcher(text);
        if (!distinct(saved) || !distinct(proxies) || !source.find(at)) {
            return null;
        }
        int pathLine = text.indexOf("\nif [ -n \"${PATH:-}\" ]", source.end() - 1);
        Matcher path = pathLine < 0 ? null : PATH.matcher(text.substring(pathLine + 1));
        if (path == null || !path.lookingAt() || !path.group(1).equals(path.group(2))) {
            return null;
        }
        CodexPreamble p = new CodexPreamble(List.copyOf(saved), List.copyOf(proxies), source.group(1), path.group(1));
        return text.startsWith(p.text()) ? p : null;
    }

    /** The preamble Codex writes for these parts. */
    String text() {
        StringBuilder sb = new StringBuilder();
        saves(PLAIN, saved, sb);
        saves(PROXY, proxies, sb);
        sb.append("__CODEX_SNAPSHOT_PROXY_ENV_SET=\"${CODEX_NETWORK_PROXY_ACTIVE+x}\"\n\n");
        sb.append("if . '").append(snapshot).append("' >/dev/null 2>&1; then :; fi\n\n");
        restores(PLAIN, saved, sb);
        sb.append("if [ -n \"$__CODEX_SNAPSHOT_PROXY_ENV_SET\" ] || [ -n \"${CODEX_NETWORK_PROXY_ACTIVE+x}\" ]; then\n");
        restores(PROXY, proxies, sb);
        sb.append("fi\n");
        sb.append("if [ -n \"${PATH:-}\" ]; then export PATH='").append(codexPath).append("':\"$PATH\"; else export PATH='")
                .append(codexPath).append("'; fi\n\n");
        return sb.toString();
    }

    private static void saves(String prefix, List<String> keys, StringBuilder sb) {
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get(i);
            sb.append(prefix).append("_SET_").append(i).append("=\"${").append(k).append("+x}\"\n");
            sb.append(prefix).append('_').append(i).append("=\"${").append(k).append("-}\"\n");
        }
    }

    private static void restores(String prefix, List<String> keys, StringBuilder sb) {
        for (int i = 0; i < keys.size(); i++) {
            String k = keys.get(i);
            String set = prefix + "_SET_" + i;
            String value = prefix + "_" + i;
            sb.append("if [ -n \"${").append(set).append("}\" ]; then\n");
            sb.append("  if [ -z \"${").append(k).append("+x}\" ] || [ \"${").append(k).append("-}\" != \"${").append(value)
                    .append("}\" ]; then export ").append(k).append("=\"${").append(value).append("}\"; else export ")
                    .append(k).append("; fi\n");
            sb.append("else builtin unset ").append(k).append(" 2>/dev/null || command unset ").append(k).append("; fi\n");
            sb.append("builtin unset ").append(set).append(' ').append(value).append(" 2>/dev/null || command unset ")
                    .append(set).append(' ').append(value).append('\n');
        }
    }

    private static boolean distinct(List<String> keys) {
        return new HashSet<>(keys).size() == keys.size();
    }
}
