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
            Path gitDir = null;
            if (Files.isDirectory(dotGit)) {
                gitDir = dotGit;
            } else if (Files.isRegularFile(dotGit)) {
                try {
                    String line = Files.readString(dotGit).strip();
                    if (!line.startsWith("gitdir:")) {
                        out.add(dotGit);
                        return out;
                    }
                    gitDir = d.resolve(line.substring(7).strip()).normalize();
                } catch (IOException e) {
                    out.add(dotGit);
                    return out;
                }
            } else if (Files.isRegularFile(d.resolve("HEAD")) && Files.isDirectory(d.resolve("objects"))
                    && Files.isRegularFile(d.resolve("config"))) {
                // a bare repository, or the inside of a .git directory
                gitDir = d;
            }
            if (gitDir != null) {
                repository(gitDir, out);
                return out;
            }
        }
        return out;
    }

    /**
     * A repository's config files: its own and its worktree's, the common directory's (a linked
     * worktree, or a .git that names one in commondir), and those of its submodules, whose
     * status git status asks for by running git in them.
     */
    private static void repository(Path gitDir, List<Path> out) {
        out.add(gitDir.resolve("config"));
        out.add(gitDir.resolve("config.worktree"));
        Path common = gitDir;
        Path commonFile = gitDir.resolve("commondir");
        if (Files.exists(commonFile)) {
            try {
                common = gitDir.resolve(Files.readString(commonFile).strip()).normalize();
                out.add(common.resolve("config"));
            } catch (IOException e) {
                out.add(commonFile);
            }
        }
        Path modules = common.resolve("modules");
        if (Files.isDirectory(modules)) {
            try (java.util.stream.Stream<Path> walk = Files.walk(modules, MODULE_DEPTH)) {
                walk.filter(p -> p.getFileName().toString().equals("config")).limit(MAX_MODULES).forEach(out::add);
            } catch (IOException | java.io.UncheckedIOException e) {
                out.add(modules);
            }
        }
    }

    private static final int MODULE_DEPTH = 8;
    private static final int MAX_MODULES = 200;

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
        List<GitConfigParser.Entry> entries;
        try {
            entries = GitConfigParser.entries(text);
        } catch (GitConfigParser.Error e) {
            return "the git config " + config + " cannot be read as git reads it (" + e.getMessage() + ")";
        }
        for (GitConfigParser.Entry e : entries) {
            String why = dangerous(e.key(), e.value());
            if (why != null) {
                return "the repository's git config (" + config + ") sets " + e.key() + ", " + why;
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
                // no keys git reads; asked for all the same (a merge once copied the section cases here,
                // where of them only these two could answer)
                case "hook" -> "which names a hook program";
                case "trace2" -> "which makes git write trace files";
                case "hookspath" -> "which points git at hook programs";
                case "sshcommand", "gitproxy", "alternaterefscommand", "editor", "askpass" -> "which git runs as a program";
                case "worktree" -> "which points git at another directory as the working tree";
                case "attributesfile" -> "which points git at attributes that choose diff and filter drivers";
                default -> null;
            };
            case "pager" -> "which git runs to show output";
            case "man", "browser" -> last.equals("cmd") || last.equals("path") || last.equals("viewer")
                    ? "which git help runs as a program" : null;
            case "web", "help" -> last.equals("browser") ? "which git help runs as a program" : null;
            case "hook" -> "which names a hook program";
            case "trace2" -> "which makes git write trace files";
            case "sequence" -> last.equals("editor") ? "which git runs as a program" : null;
            case "interactive" -> last.equals("difffilter") ? "which git runs as a program" : null;
            case "merge" -> last.equals("driver") ? "a merge driver git runs as a program" : null;
            case "credential" -> last.equals("helper") ? "which git runs as a program" : null;
            case "ssh" -> last.equals("variant") ? "which changes how git runs ssh" : null;
            case "diff" -> last.equals("external") || last.equals("textconv") || last.equals("command")
                    ? "which git diff and log run as a program" : null;
            case "filter" -> last.equals("clean") || last.equals("smudge") || last.equals("process")
                    ? "a filter program git runs on files" : null;
            case "include", "includeif" -> "which includes another config file shellgate does not read";
            case "gpg" -> last.equals("program") ? "which git log runs to check signatures" : null;
            case "remote" -> last.equals("uploadpack") || last.equals("receivepack") || last.equals("vcs")
                    ? "which git runs as a program" : null;
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
