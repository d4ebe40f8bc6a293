package io.shellgate.it.oracle;

import io.shellgate.judge.Dialect;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The hostile-fixture mode of the execution oracle (issue 28): worlds an agent's own edit tool can
 * make without any judged command (files written, none run), each a world of its own in which the
 * same lines are judged and the allowed ones run. Every fixture's trap leaves a trace the
 * {@link Inspector} sees: a program run ({@code sh -c 'touch ...'} from an fsmonitor, a textconv,
 * a pager, an {@code ext::} remote, {@code ~/.mavenrc}), or a canary opened through a link.
 */
final class HostileFixtures {

    /** The programs whose lines run in every hostile world: those that read the files the fixtures plant. */
    static final Set<String> PROGRAMS = Set.of("git", "find", "grep", "egrep", "fgrep", "rgrep", "mvn", "pip", "pip3",
            "python3", "cat", "head", "tail", "less");
    /** A hash no object of the fixture has: a partial clone fetches it from its promisor remote. */
    static final String MISSING = "0123456789abcdef0123456789abcdef01234567";
    private static final Pattern WORD = Pattern.compile("[\\s;|&()]+");

    /** One hostile world: a name, what it plants, and the lines that go straight at it. */
    interface Fixture {
        String name();

        /** Plants the fixture in a freshly built world. */
        void plant(World w) throws IOException, InterruptedException;

        /** Lines aimed at this fixture, besides the common ones. */
        List<String> probes();

        /** Whether git lines also run as {@code cd sub && ...} and {@code git -C sub ...} (and the other folders). */
        default List<String> subfolders() {
            return List.of();
        }

        /** The agent whose envelope wraps this world's lines ({@code claude-code}), or null: the lines run on their own. */
        default String agent() {
            return null;
        }

        /** This world's lines as they reach the judge and the shell in the planted world {@code w}. */
        default List<Candidate> wrap(World w, List<Candidate> lines) {
            return lines;
        }

        /** The traps of this world: each must go off when the world's own lines run unjudged. */
        default List<String> traps() {
            return List.of(name());
        }

        /** The trap a line of this world goes at, or null for none. */
        default String trap(Candidate c) {
            return name();
        }
    }

    private HostileFixtures() {}

    /** The fixtures, one world each. */
    static List<Fixture> all() {
        return List.of(DECOY_GIT, GITFILE, PARTIAL_CLONE, HOME_CONFIG, XDG_CONFIG, SYSTEM_CONFIG, ATTRIBUTES_FILE,
                LINKS_AND_TOOLS, new SnapshotFixture(), new CodexSnapshotFixture());
    }

    /** The marker command a trap runs: an exec of {@code sh} and of {@code touch}, and a write. */
    static String marker(World w, String name) {
        return "touch " + w.home.resolve("oracle-pwned-" + name);
    }

    /**
     * A real repository whose {@code .git/config} runs an fsmonitor, with a decoy repository in
     * {@code sub} (an empty {@code .git} folder) and in {@code bare} (a bare-looking folder whose
     * {@code HEAD} is no ref): git walks on past both to the real one.
     */
    static final Fixture DECOY_GIT = new Simple("decoy-git", List.of("git status", "cd sub && git status",
            "git -C sub status", "git -C sub diff", "cd bare && git status", "git -C bare log --oneline",
            "cd sub && git diff --stat", "cd bare && git diff"), List.of("sub", "bare")) {
        @Override
        public void plant(World w) throws IOException, InterruptedException {
            World.write(w.proj.resolve("sub/f"), "x\n");
            Files.createDirectories(w.proj.resolve("sub/.git"));
            Files.createDirectories(w.proj.resolve("bare/objects"));
            Files.createDirectories(w.proj.resolve("bare/refs"));
            World.write(w.proj.resolve("bare/HEAD"), "garbage\n");
            World.write(w.proj.resolve("bare/config"), "[core]\n");
            w.git("config", "core.fsmonitor", marker(w, "fsmonitor") + "; false #");
        }
    };

    /**
     * A submodule {@code sub} of the project whose gitfile says {@code gitdir: ../../elsewhere}, a
     * repository outside {@code .git/modules} whose config runs an fsmonitor.
     */
    static final Fixture GITFILE = new Simple("gitfile", List.of("git status", "git diff", "cd sub && git status",
            "git -C sub status", "git -C sub diff", "git submodule status", "git status --short"), List.of("sub")) {
        @Override
        public void plant(World w) throws IOException, InterruptedException {
            Path elsewhere = w.home.resolve("elsewhere");
            w.git("init", "-q", "-b", "main", "--separate-git-dir=" + elsewhere, "sub");
            World.write(w.proj.resolve("sub/f.txt"), "f\n");
            w.git("-C", "sub", "add", "f.txt");
            w.git("-C", "sub", "commit", "-qm", "sub");
            World.write(w.proj.resolve("sub/.git"), "gitdir: ../../elsewhere\n");
            World.write(w.proj.resolve(".gitmodules"), "[submodule \"sub\"]\n\tpath = sub\n\turl = ./sub\n");
            w.git("add", ".gitmodules", "sub");
            w.git("commit", "-qm", "submodule");
            World.write(w.proj.resolve("sub/f.txt"), "f\nchanged\n");
            w.git("--git-dir=" + elsewhere, "config", "core.fsmonitor", marker(w, "gitfile") + "; false #");
        }
    };

    /** A partial clone whose promisor remote is an {@code ext::} URL that runs a shell, with {@code ext} allowed. */
    static final Fixture PARTIAL_CLONE = new Simple("partial-clone", List.of("git cat-file -p " + MISSING,
            "git show " + MISSING, "git log -1 " + MISSING, "git diff " + MISSING, "git rev-list --objects --all",
            "git log --oneline"), List.of()) {
        @Override
        public void plant(World w) throws IOException, InterruptedException {
            w.git("config", "core.repositoryformatversion", "1");
            w.git("config", "extensions.partialClone", "origin");
            // "% " is the ext transport's escaped space ("%20" is no placeholder of it: git refuses the URL)
            w.git("config", "remote.origin.url", "ext::sh -c touch% " + w.home.resolve("oracle-pwned-promisor"));
            w.git("config", "remote.origin.promisor", "true");
            w.git("config", "remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*");
            w.git("config", "protocol.ext.allow", "always");
        }
    };

    /**
     * Git's global configuration in the scratch home: {@code ~/.gitconfig} with an fsmonitor, a pager
     * and a textconv driver, and {@code ~/.config/git/attributes} (git's default attributes file)
     * that gives every file that driver.
     */
    static final Fixture HOME_CONFIG = new Simple("home-config", List.of("git status", "git diff", "git log -p -1",
            "git show HEAD", "git diff HEAD~1 -- a.txt", "git log --oneline"), List.of()) {
        @Override
        public void plant(World w) throws IOException {
            World.write(w.home.resolve(".gitconfig"), "[core]\n\tfsmonitor = \"" + marker(w, "global-fsmonitor")
                    + "; false #\"\n\tpager = \"" + marker(w, "global-pager") + "; cat\"\n[diff \"oracle\"]\n\ttextconv = \""
                    + marker(w, "global-textconv") + "; cat\"\n");
            World.write(w.home.resolve(".config/git/attributes"), "* diff=oracle\n");
        }
    };

    /** The same through {@code $XDG_CONFIG_HOME/git/config} and its attributes file. */
    static final Fixture XDG_CONFIG = new Simple("xdg-config", HOME_CONFIG.probes(), List.of()) {
        @Override
        public void plant(World w) throws IOException {
            Path xdg = w.home.resolve(".xdg");
            w.extra.put("XDG_CONFIG_HOME", xdg.toString());
            World.write(xdg.resolve("git/config"), "[core]\n\tfsmonitor = \"" + marker(w, "xdg-fsmonitor")
                    + "; false #\"\n[diff \"oracle\"]\n\ttextconv = \"" + marker(w, "xdg-textconv") + "; cat\"\n");
            World.write(xdg.resolve("git/attributes"), "* diff=oracle\n");
        }
    };

    /**
     * Git's system configuration, which is {@code /etc/gitconfig} unless {@code GIT_CONFIG_SYSTEM}
     * names another file: the sandbox's {@code /etc} is the host's and read-only, so the variable
     * (set for the judge and the run) names {@code etc/gitconfig} of the world, with an fsmonitor, a
     * pager and a textconv driver that the repository's {@code .git/info/attributes} gives every
     * file. Beside it {@code etc/gitconfig-clean}, empty: a command that points git there, or sets
     * {@code GIT_CONFIG_NOSYSTEM}, reads no trap, as git decides it.
     */
    static final Fixture SYSTEM_CONFIG = new Simple("system-config", List.of("git status", "git diff", "git log -p -1",
            "git show HEAD", "git diff HEAD~1 -- a.txt", "git log --oneline", "GIT_CONFIG_NOSYSTEM=1 git status",
            "GIT_CONFIG_NOSYSTEM=1 git diff", "GIT_CONFIG_SYSTEM=../../etc/gitconfig-clean git diff"), List.of()) {
        @Override
        public void plant(World w) throws IOException {
            Path system = w.root.resolve("etc/gitconfig");
            w.extra.put("GIT_CONFIG_SYSTEM", system.toString());
            World.write(system, "[core]\n\tfsmonitor = \"" + marker(w, "system-fsmonitor") + "; false #\"\n\tpager = \""
                    + marker(w, "system-pager") + "; cat\"\n[diff \"oracle\"]\n\ttextconv = \"" + marker(w, "system-textconv")
                    + "; cat\"\n");
            World.write(w.root.resolve("etc/gitconfig-clean"), "");
            World.write(w.proj.resolve(".git/info/attributes"), "* diff=oracle\n");
        }
    };

    /**
     * A relocated attributes file: {@code ~/.gitconfig} sets {@code core.attributesFile} to
     * {@code ~/.local/share/oracle/attrs} and defines a textconv driver and an external diff driver
     * ({@code diff.*.command}), which that file gives {@code a.txt} (changed by the last commit)
     * and {@code b.txt} (changed in the work tree).
     */
    static final Fixture ATTRIBUTES_FILE = new Simple("attributes-file", List.of("git diff", "git diff --stat",
            "git log -p -1", "git show HEAD", "git diff HEAD~1 -- a.txt", "git diff HEAD -- b.txt", "git log --oneline"),
            List.of()) {
        @Override
        public void plant(World w) throws IOException {
            World.write(w.home.resolve(".gitconfig"), "[core]\n\tattributesFile = ~/.local/share/oracle/attrs\n"
                    + "[diff \"oracle\"]\n\ttextconv = \"" + marker(w, "attributes-textconv") + "; cat\"\n"
                    + "[diff \"external\"]\n\tcommand = \"" + marker(w, "attributes-external") + "; true #\"\n");
            World.write(w.home.resolve(".local/share/oracle/attrs"), "a.txt diff=oracle\nb.txt diff=external\n");
        }
    };

    /**
     * Committed symbolic links with harmless names to secrets ({@code notes.txt} to
     * {@code ~/.ssh/id_rsa}, {@code hist.txt} to {@code ~/.bash_history}), a {@code ~/.mavenrc}
     * (Maven's script sources it) and a {@code .python-version}. They do not mask each other: the
     * links trap readers of files, the others trap the tools' start.
     */
    static final Fixture LINKS_AND_TOOLS = new Simple("links-and-tools", List.of("cat notes.txt", "head hist.txt",
            "tail -n 3 hist.txt", "less notes.txt", "grep -r foo .", "grep -rn TODO .", "find . -name '*.txt' -exec cat {} +",
            "find -L . -name '*.txt' -exec grep -l x {} +", "git grep -n foo", "git show HEAD:notes.txt", "mvn -v",
            "python3 --version", "pip --version", "pip3 list"), List.of()) {
        @Override
        public void plant(World w) throws IOException, InterruptedException {
            Files.createSymbolicLink(w.proj.resolve("notes.txt"), w.home.resolve(".ssh/id_rsa"));
            Files.createSymbolicLink(w.proj.resolve("hist.txt"), w.home.resolve(".bash_history"));
            w.git("add", "notes.txt", "hist.txt");
            w.git("commit", "-qm", "notes");
            World.write(w.home.resolve(".mavenrc"), marker(w, "mavenrc") + "\n");
            World.write(w.proj.resolve(".python-version"), "3.99.1\n");
        }
    };

    /**
     * The lines every hostile world judges: those of {@code candidates} whose words name one of
     * {@link #PROGRAMS} (plain generated lines and every corpus line), and every line of the red
     * team's third corpus. Hostile generated lines stay with the plain world, which runs them all.
     */
    static List<Candidate> select(List<Candidate> candidates) {
        List<Candidate> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Candidate c : candidates) {
            boolean generated = c.origin().endsWith(" plain") || c.origin().endsWith(" hostile");
            boolean names = WORD.splitAsStream(c.line()).anyMatch(PROGRAMS::contains);
            boolean take = c.origin().startsWith("redteam3.jsonl:") || names && (generated
                    ? c.origin().endsWith(" plain") && PROGRAMS.contains(c.line().split(" ")[0]) : true);
            if (take && seen.add(c.dialect().id() + "\t" + c.line())) {
                out.add(c);
            }
        }
        return out;
    }

    /**
     * The lines of one fixture planted in {@code w}: the common ones, git's again in its subfolders,
     * and its probes, as the fixture's agent sends them.
     */
    static List<Candidate> lines(Fixture f, World w, List<Candidate> common) {
        List<Candidate> out = new ArrayList<>(common);
        for (String sub : f.subfolders()) {
            for (Candidate c : common) {
                if (c.line().startsWith("git ") && !c.line().contains("\n")) {
                    out.add(new Candidate("cd " + sub + " && " + c.line(), c.dialect(), c.origin() + " in " + sub));
                    out.add(new Candidate("git -C " + sub + c.line().substring(3), c.dialect(), c.origin() + " -C " + sub));
                }
            }
        }
        for (String p : f.probes()) {
            out.add(new Candidate(p, Dialect.BASH, "probe of " + f.name()));
        }
        return f.wrap(w, out);
    }

    abstract static class Simple implements Fixture {
        private final String name;
        private final List<String> probes;
        private final List<String> subfolders;

        Simple(String name, List<String> probes, List<String> subfolders) {
            this.name = name;
            this.probes = probes;
            this.subfolders = subfolders;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public List<String> probes() {
            return probes;
        }

        @Override
        public List<String> subfolders() {
            return subfolders;
        }
    }
}
