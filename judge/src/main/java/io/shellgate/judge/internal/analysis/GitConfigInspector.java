package io.shellgate.judge.internal.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the local config of the git repository around a directory and reports settings that make
 * even read-only git commands run programs: {@code git status} runs {@code core.fsmonitor},
 * {@code git log} runs {@code core.pager}, {@code git diff} runs {@code diff.external} and
 * textconv drivers, clean and smudge filters run on status. Answers are cached per config file
 * until it changes.
 */
final class GitConfigInspector {

    private record Cached(long modified, long size, String problem) {}

    private final ConcurrentHashMap<Path, Cached> cache = new ConcurrentHashMap<>();

    /** Why read-only git commands are not safe in the repository around {@code cwd}, or null. */
    String problem(Path cwd) {
        List<Path> configs = configFiles(cwd);
        for (Path config : configs) {
            String problem = inspect(config);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static List<Path> configFiles(Path cwd) {
        List<Path> out = new ArrayList<>();
        for (Path d = cwd; d != null; d = d.getParent()) {
            Path dotGit = d.resolve(".git");
            if (Files.isDirectory(dotGit)) {
                out.add(dotGit.resolve("config"));
                out.add(dotGit.resolve("config.worktree"));
                return out;
            }
            if (Files.isRegularFile(dotGit)) {
                try {
                    String line = Files.readString(dotGit).strip();
                    if (line.startsWith("gitdir:")) {
                        Path gitDir = d.resolve(line.substring(7).strip()).normalize();
                        out.add(gitDir.resolve("config"));
                        out.add(gitDir.resolve("config.worktree"));
                        Path common = gitDir.resolve("commondir");
                        if (Files.isRegularFile(common)) {
                            Path commonDir = gitDir.resolve(Files.readString(common).strip()).normalize();
                            out.add(commonDir.resolve("config"));
                        }
                    }
                } catch (IOException e) {
                    out.add(dotGit);
                }
                return out;
            }
            if (Files.isRegularFile(d.resolve("HEAD")) && Files.isDirectory(d.resolve("objects"))
                    && Files.isRegularFile(d.resolve("config"))) {
                // a bare repository, or the inside of a .git directory
                out.add(d.resolve("config"));
                return out;
            }
        }
        return out;
    }

    private String inspect(Path config) {
        try {
            if (!Files.isRegularFile(config)) {
                return null;
            }
            long modified = Files.getLastModifiedTime(config).toMillis();
            long size = Files.size(config);
            Cached c = cache.get(config);
            if (c != null && c.modified == modified && c.size == size) {
                return c.problem;
            }
            String problem = scan(config, Files.readString(config));
            cache.put(config, new Cached(modified, size, problem));
            return problem;
        } catch (IOException e) {
            return "the git config " + config + " cannot be read (" + e.getMessage() + ")";
        }
    }

    /** Looks for keys that run programs; includes are treated as unknown. */
    static String scan(Path config, String text) {
        String section = "";
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[")) {
                int close = line.indexOf(']');
                String header = close > 0 ? line.substring(1, close).strip() : line.substring(1);
                int quote = header.indexOf('"');
                String name = (quote >= 0 ? header.substring(0, quote).strip() : header).toLowerCase(Locale.ROOT);
                String sub = quote >= 0 ? header.substring(quote).replace("\"", "").strip() : "";
                section = sub.isEmpty() ? name : name + "." + sub;
                line = close > 0 ? line.substring(close + 1).strip() : "";
                if (line.isEmpty()) {
                    continue;
                }
            }
            int eq = line.indexOf('=');
            String key = (eq >= 0 ? line.substring(0, eq) : line).strip().toLowerCase(Locale.ROOT);
            String value = eq >= 0 ? line.substring(eq + 1).strip() : "true";
            String full = section.isEmpty() ? key : section + "." + key;
            String why = dangerous(full, value);
            if (why != null) {
                return "the repository's git config (" + config + ") sets " + full + ", " + why;
            }
        }
        return null;
    }

    private static String dangerous(String key, String value) {
        String section = key.contains(".") ? key.substring(0, key.indexOf('.')) : key;
        String last = key.substring(key.lastIndexOf('.') + 1);
        return switch (section) {
            case "core" -> switch (last) {
                case "fsmonitor" -> isFalse(value) ? null : "which git status runs as a program";
                case "pager" -> "which git runs to show output";
                case "hookspath" -> "which points git at hook programs";
                case "sshcommand", "gitproxy", "alternaterefscommand", "editor", "askpass" -> "which git runs as a program";
                default -> null;
            };
            case "pager" -> "which git runs to show output";
            case "diff" -> last.equals("external") || last.equals("textconv") || last.equals("command")
                    ? "which git diff and log run as a program" : null;
            case "filter" -> last.equals("clean") || last.equals("smudge") || last.equals("process")
                    ? "a filter program git runs on files" : null;
            case "include", "includeif" -> "which includes another config file shellgate does not read";
            case "gpg" -> last.equals("program") ? "which git log runs to check signatures" : null;
            case "uploadpack", "receive" -> last.endsWith("hook") || last.equals("packobjectshook")
                    ? "which runs a hook program" : null;
            default -> null;
        };
    }

    private static boolean isFalse(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        return v.equals("false") || v.equals("0") || v.equals("no") || v.equals("off") || v.isEmpty();
    }
}
