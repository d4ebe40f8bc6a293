package io.shellgate.judge.internal.analysis.host;

import io.shellgate.judge.internal.analysis.model.Budget;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Asks git where the repository around a directory is and which settings apply there, instead of
 * imitating its discovery: {@code git rev-parse --absolute-git-dir --show-toplevel}, {@code git
 * config --list --show-scope --show-origin --includes} and, for the submodules {@code git status}
 * looks into, {@code git ls-files --stage}, each run with the command's directory and the parts of
 * its environment that choose the repository and the configuration. None of these runs a hook, the
 * file system monitor, a pager, a credential helper, or fetches; tracing is switched off so that
 * no configured trace target is written. An answer is kept until one of the files and directories
 * it rests on (each directory git looked in on its way up, the git directory's files, every
 * configuration file and include, present or not, a relative one where git would read it: from
 * the directory it starts in and from the top of the work tree it moves to) changes; anything
 * unexpected, and a git slower than the budget, is a problem, which asks. {@code GIT_CONFIG} is not
 * passed on: only {@code git config} reads the file it names.
 */
public final class GitProbe {

    /** Variables that choose the repository or the configuration git reads; nothing else reaches the probe. */
    private static final List<String> PASSED = List.of("HOME", "XDG_CONFIG_HOME", "GIT_DIR", "GIT_WORK_TREE",
            "GIT_COMMON_DIR", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
            "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
            "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_NAMESPACE");
    /**
     * Variables whose value is a path (or a directory of one) that chooses the repository or the
     * configuration; a relative one is taken from the directory git is in when it reads it.
     */
    private static final List<String> PATHS = List.of("GIT_DIR", "GIT_COMMON_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE",
            "GIT_OBJECT_DIRECTORY", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "HOME", "XDG_CONFIG_HOME");
    /** What a submodule's git does not inherit from its superproject's (git's local repository variables). */
    private static final List<String> REPOSITORY_LOCAL = List.of("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR",
            "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES");
    /** For all the git starts of one question, submodules included. */
    private static final long TIMEOUT_MILLIS = 5000;
    private static final int MAX_SUBMODULES = 32;
    private static final int MAX_DEPTH = 3;
    private static final int MAX_CACHED = 512;

    /** An answer with what it rests on; one with no stamps is not kept (git was too slow, or failed midway). */
    private record Answer(GitRepository repo, List<FileStamp> stamps) {}

    private record Key(Path cwd, Map<String, String> env) {}

    private final String git;
    private final ConcurrentHashMap<Key, Answer> cache = new ConcurrentHashMap<>();

    GitProbe(String git) {
        this.git = git;
    }

    /** A probe that runs the first {@code git} on the judge's own PATH. */
    static GitProbe system() {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/bin" : path).split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, "git");
            if (dir.startsWith("/") && Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return new GitProbe(candidate.toString());
            }
        }
        return new GitProbe(null);
    }

    /** The git this probe runs, or null when none was found. */
    Path program() {
        return git == null ? null : Path.of(git);
    }

    /** The variables of {@code env} that the probe passes on to git. */
    static Map<String, String> relevant(Map<String, String> env) {
        Map<String, String> out = new TreeMap<>();
        env.forEach((k, v) -> {
            if (passes(k)) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** Whether the probe passes the variable {@code name} on to git. */
    public static boolean passes(String name) {
        return PASSED.contains(name) || name.startsWith("GIT_CONFIG_KEY_") || name.startsWith("GIT_CONFIG_VALUE_");
    }

    /** What git says about {@code cwd} with the variables {@code env} (already {@link #relevant}). */
    GitRepository repository(Path cwd, Map<String, String> env) {
        return answer(cwd, env, 0, new Budget(System.nanoTime() + TIMEOUT_MILLIS * 1_000_000L)).repo;
    }

    /** The submodules asked about so far and the clock all of one question's git starts share. */
    private static final class Budget {
        final long deadline;
        int submodules;

        Budget(long deadline) {
            this.deadline = deadline;
        }

        long millisLeft() {
            return (deadline - System.nanoTime()) / 1_000_000L;
        }
    }

    private Answer answer(Path cwd, Map<String, String> env, int depth, Budget count) {
        Key key = new Key(cwd, env);
        Answer known = cache.get(key);
        if (known != null && FileStamp.unchanged(known.stamps)) {
            return known;
        }
        Answer fresh = probe(cwd, env, depth, count);
        if (!fresh.stamps.isEmpty()) {
            if (cache.size() >= MAX_CACHED) {
                cache.clear();
            }
            cache.put(key, fresh);
        }
        return fresh;
    }

    private Answer probe(Path cwd, Map<String, String> env, int depth, Budget count) {
        List<FileStamp> stamps = new ArrayList<>();
        // taken before git runs: a change while it runs is seen by the next question
        // what git looks for at each level on its way up: a .git (folder or file) that holds a repository,
        // or the level itself being one (bare); each level's two stamps, the rest only where they exist
        List<FileStamp> upward = new ArrayList<>();
        for (Path d = cwd; d != null; d = d.getParent()) {
            Path dotGit = d.resolve(".git");
            upward.add(FileStamp.guarded(dotGit, List.of(dotGit.resolve("HEAD"), dotGit.resolve("objects"),
                    dotGit.resolve("refs"), dotGit.resolve("commondir"), dotGit.resolve("config"))));
            upward.add(FileStamp.guarded(d.resolve("HEAD"), List.of(d.resolve("objects"), d.resolve("refs"),
                    d.resolve("commondir"), d.resolve("config"))));
        }
        // a relative path is read from where git starts (before it finds the repository) and from the top of
        // the work tree (after it moved there), so both places are stamped
        stamps.addAll(candidates(env, cwd));
        if (git == null) {
            return new Answer(GitRepository.failed("git is not installed where shellgate can ask it about the repository"),
                    List.of());
        }
        Run where = run(List.of("rev-parse", "--absolute-git-dir", "--show-toplevel"), cwd, env, count);
        Path gitDir = null;
        Path top = null;
        // a failure to find the repository is kept like an answer, until the directory or a level above changes
        // (a line in a directory that does not exist asks without starting git each time); a slow git is not kept
        List<FileStamp> failed = new ArrayList<>(upward);
        failed.addAll(stamps);
        failed.add(FileStamp.of(cwd));
        if (where.failure != null) {
            return new Answer(GitRepository.failed(where.failure), where.slow ? List.of() : failed);
        }
        String[] lines = where.out.split("\n");
        if (where.exit == 0 && lines.length == 2 && lines[0].startsWith("/") && lines[1].startsWith("/")) {
            gitDir = Path.of(lines[0]);
            top = Path.of(lines[1]);
        } else if (where.exit == 128 && lines.length == 1 && lines[0].startsWith("/")
                && where.err.contains("must be run in a work tree")) {
            gitDir = Path.of(lines[0]);
        } else if (!(where.exit == 128 && where.out.isEmpty() && where.err.startsWith("fatal: not a git repository"))) {
            return new Answer(GitRepository.failed("git could not tell which repository " + cwd + " belongs to ("
                    + firstLine(where.err, where.exit) + ")"), failed);
        }
        Path root = top != null ? top : gitDir;
        // taken before git lists the settings, as the others are before it runs at all
        for (Path base : new Path[] {top, gitDir}) {
            if (base != null && !base.equals(cwd)) {
                stamps.addAll(candidates(env, base));
            }
        }
        for (int i = 0; i < upward.size(); i += 2) {
            Path level = upward.get(i).path().getParent();
            stamps.addAll(upward.subList(i, i + 2));
            if (root != null && root.startsWith(level)) {
                break;
            }
        }
        Run list = run(List.of("config", "--list", "-z", "--show-scope", "--show-origin", "--includes"), cwd, env, count);
        List<GitRepository.Setting> settings = list.failure == null && list.exit == 0
                ? GitRepository.parseList(list.out) : null;
        if (settings == null) {
            return new Answer(GitRepository.failed("git could not list the settings that apply in " + cwd + " ("
                    + (list.failure != null ? list.failure : firstLine(list.err, list.exit)) + ")"), List.of());
        }
        if (gitDir != null) {
            // the index: the submodules git looks into are its gitlinks
            for (String f : List.of("config", "config.worktree", "commondir", "HEAD", "index")) {
                stamps.add(FileStamp.of(gitDir.resolve(f)));
            }
        }
        Path base = top != null ? top : gitDir != null ? gitDir : cwd;
        for (GitRepository.Setting s : settings) {
            if (s.origin().startsWith("file:")) {
                Path file = base.resolve(s.origin().substring(5)).normalize();
                stamps.add(FileStamp.of(file));
                String k = GitRepository.normal(s.key());
                if (s.value() != null && (k.equals("include.path") || k.startsWith("includeif.") && k.endsWith(".path"))) {
                    stamps.add(FileStamp.of(includeTarget(s.value(), file, base, env)));
                }
            }
        }
        List<GitRepository> submodules = new ArrayList<>();
        if (top != null) {
            String problem = submodules(top, env, depth, count, submodules, stamps);
            if (problem != null) {
                return new Answer(GitRepository.failed(problem), List.of());
            }
        }
        // each stamp once: every setting of a file names the file again (a path stamped with and without the
        // paths inside it keeps both)
        return new Answer(new GitRepository(gitDir, top, List.copyOf(settings), List.copyOf(submodules), null),
                List.copyOf(new java.util.LinkedHashSet<>(stamps)));
    }

    /** Asks git for the submodules in the index and what git says about each one that is checked out. */
    private String submodules(Path top, Map<String, String> env, int depth, Budget count, List<GitRepository> out,
            List<FileStamp> stamps) {
        Run index = run(List.of("-c", "core.fsmonitor=false", "ls-files", "--stage", "-z"), top, env, count);
        if (index.failure != null || index.exit != 0) {
            return "git could not list the index of " + top + " ("
                    + (index.failure != null ? index.failure : firstLine(index.err, index.exit)) + ")";
        }
        Map<String, String> childEnv = new TreeMap<>(env);
        REPOSITORY_LOCAL.forEach(childEnv::remove);
        for (String entry : index.out.split("\u0000")) {
            if (!entry.startsWith("160000 ")) {
                continue;
            }
            int tab = entry.indexOf('\t');
            Path dir = top.resolve(entry.substring(tab + 1)).normalize();
            FileStamp dotGit = FileStamp.of(dir.resolve(".git"));
            stamps.add(dotGit);
            if (!dotGit.exists()) {
                continue;
            }
            if (depth >= MAX_DEPTH || ++count.submodules > MAX_SUBMODULES) {
                return "the repository " + top + " has more submodules, or deeper ones, than shellgate asks git about";
            }
            Answer sub = answer(dir, childEnv, depth + 1, count);
            out.add(sub.repo);
            stamps.addAll(sub.stamps);
        }
        return null;
    }

    /**
     * Where an include's path leads: {@code ~/} is the home directory (itself read from {@code base}
     * when relative), a relative path is beside the including file.
     */
    private static Path includeTarget(String value, Path including, Path base, Map<String, String> env) {
        String home = env.getOrDefault("HOME", "/");
        if (value.startsWith("~/")) {
            return base.resolve(home).resolve(value.substring(2)).normalize();
        }
        return including.getParent() == null ? Path.of(value) : including.getParent().resolve(value).normalize();
    }

    /**
     * Stamps of the global and system configuration files git would read and of the repository the
     * variables name, present or not (one may appear later), relative paths taken from {@code base}.
     */
    private static List<FileStamp> candidates(Map<String, String> env, Path base) {
        Map<String, Path> at = new TreeMap<>();
        for (String name : PATHS) {
            String value = env.get(name);
            if (value != null && !value.isEmpty()) {
                at.put(name, base.resolve(value).normalize());
            }
        }
        List<FileStamp> out = new ArrayList<>();
        Path home = at.get("HOME");
        if (env.containsKey("GIT_CONFIG_GLOBAL")) {
            out.add(FileStamp.of(at.getOrDefault("GIT_CONFIG_GLOBAL", base)));
        } else if (home != null) {
            out.add(FileStamp.of(home.resolve(".gitconfig")));
            Path xdg = at.get("XDG_CONFIG_HOME");
            out.add(FileStamp.of(xdg != null ? xdg.resolve("git/config") : home.resolve(".config/git/config")));
        }
        out.add(FileStamp.of(env.containsKey("GIT_CONFIG_SYSTEM") ? at.getOrDefault("GIT_CONFIG_SYSTEM", base)
                : Path.of("/etc/gitconfig")));
        for (String name : List.of("GIT_DIR", "GIT_COMMON_DIR")) {
            Path dir = at.get(name);
            if (dir != null) {
                out.add(FileStamp.guarded(dir, List.of(dir.resolve("HEAD"), dir.resolve("commondir"), dir.resolve("config"),
                        dir.resolve("config.worktree"), dir.resolve("objects"), dir.resolve("refs"))));
            }
        }
        for (String name : List.of("GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY")) {
            if (at.containsKey(name)) {
                out.add(FileStamp.of(at.get(name)));
            }
        }
        return out;
    }

    private record Run(int exit, String out, String err, String failure, boolean slow) {

        Run(int exit, String out, String err, String failure) {
            this(exit, out, err, failure, false);
        }
    }

    /** Runs git with a bare environment of {@code env} and settings that keep it from running anything else. */
    private Run run(List<String> args, Path cwd, Map<String, String> env, Budget budget) {
        long millis = budget.millisLeft();
        if (millis <= 0) {
            return new Run(-1, "", "", "git took longer than " + TIMEOUT_MILLIS + " ms to answer", true);
        }
        List<String> command = new ArrayList<>();
        command.add(git);
        command.add("--no-pager");
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> e = pb.environment();
        e.clear();
        e.putAll(env);
        // only git config itself reads the file GIT_CONFIG names; every other command reads the usual scopes,
        // which are what the probe must report (a git config line with GIT_CONFIG asks on its own)
        e.remove("GIT_CONFIG");
        e.put("PATH", "/usr/bin:/bin");
        e.put("LC_ALL", "C");
        e.put("GIT_TERMINAL_PROMPT", "0");
        e.put("GIT_OPTIONAL_LOCKS", "0");
        e.put("GIT_NO_LAZY_FETCH", "1");
        e.put("GIT_PAGER", "cat");
        for (String trace : List.of("GIT_TRACE", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF")) {
            e.put(trace, "0");
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException ex) {
            return new Run(-1, "", "", "git could not be started: " + ex.getMessage());
        }
        StringBuilder out = new StringBuilder();
        StringBuilder err = new StringBuilder();
        Thread outReader = Thread.ofVirtual().start(() -> drain(p.getInputStream(), out));
        Thread errReader = Thread.ofVirtual().start(() -> drain(p.getErrorStream(), err));
        try {
            if (!p.waitFor(millis, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return new Run(-1, "", "", "git took longer than " + TIMEOUT_MILLIS + " ms to answer", true);
            }
            outReader.join(TIMEOUT_MILLIS);
            errReader.join(TIMEOUT_MILLIS);
        } catch (InterruptedException ex) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return new Run(-1, "", "", "interrupted while git answered", true);
        }
        synchronized (out) {
            synchronized (err) {
                return new Run(p.exitValue(), out.toString(), err.toString(), null);
            }
        }
    }

    private static void drain(InputStream in, StringBuilder into) {
        try (in) {
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            synchronized (into) {
                into.append(text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String firstLine(String err, int exit) {
        String line = err.strip();
        int nl = line.indexOf('\n');
        return (nl < 0 ? line : line.substring(0, nl)) + ", exit " + exit;
    }
}
