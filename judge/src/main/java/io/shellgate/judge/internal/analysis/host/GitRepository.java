package io.shellgate.judge.internal.analysis.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What git itself says about a directory: the repository it finds there (its git directory and
 * work tree, both null outside a repository), every setting that applies there with its scope
 * and file, the repositories of the submodules that {@code git status} and {@code git diff} look
 * into, or why git could not say (then nothing else counts).
 */
public record GitRepository(Path gitDir, Path topLevel, List<Setting> settings, List<GitRepository> submodules, String problem) {

    /** One line of {@code git config --list --show-scope --show-origin}; a key without {@code =} has a null value. */
    public record Setting(String scope, String origin, String key, String value) {

        /** The subsection ({@code origin} of {@code remote.origin.url}), or null. */
        public String subsection() {
            int first = key.indexOf('.');
            int last = key.lastIndexOf('.');
            return first < 0 || first == last ? null : key.substring(first + 1, last);
        }

        public String where() {
            return scope + " config " + origin;
        }
    }

    static GitRepository failed(String problem) {
        return new GitRepository(null, null, List.of(), List.of(), problem);
    }

    public boolean found() {
        return gitDir != null;
    }

    /** This repository's settings and those of its submodules, all the way down. */
    List<Setting> allSettings() {
        List<Setting> out = new ArrayList<>(settings);
        for (GitRepository s : submodules) {
            out.addAll(s.allSettings());
        }
        return out;
    }

    /** The first reason in this repository or a submodule why git could not say, or null. */
    public String anyProblem() {
        if (problem != null) {
            return problem;
        }
        for (GitRepository s : submodules) {
            String p = s.anyProblem();
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** The values of {@code key} in this repository (section and name compared without case). */
    public List<String> values(String key) {
        String wanted = normal(key);
        List<String> out = new ArrayList<>();
        for (Setting s : settings) {
            if (normal(s.key()).equals(wanted)) {
                out.add(s.value() == null ? "true" : s.value());
            }
        }
        return out;
    }

    /** A key with its section and its name in lower case, as git stores them; the subsection keeps its case. */
    public static String normal(String key) {
        int first = key.indexOf('.');
        int last = key.lastIndexOf('.');
        if (first < 0) {
            return key.toLowerCase(Locale.ROOT);
        }
        return key.substring(0, first).toLowerCase(Locale.ROOT) + key.substring(first, last + 1)
                + key.substring(last + 1).toLowerCase(Locale.ROOT);
    }

    /**
     * Reads {@code git config --list -z --show-scope --show-origin}: records of scope, origin and
     * key-newline-value, each ended by NUL; null when the text is not in that form.
     */
    static List<Setting> parseList(String text) {
        List<Setting> out = new ArrayList<>();
        String[] parts = text.split("\u0000", -1);
        if (parts.length % 3 != 1 || !parts[parts.length - 1].isEmpty()) {
            return null;
        }
        for (int i = 0; i + 2 < parts.length; i += 3) {
            String entry = parts[i + 2];
            int nl = entry.indexOf('\n');
            String key = nl < 0 ? entry : entry.substring(0, nl);
            if (key.isEmpty() || parts[i].isEmpty()) {
                return null;
            }
            out.add(new Setting(parts[i], parts[i + 1], key, nl < 0 ? null : entry.substring(nl + 1)));
        }
        return out;
    }
}
