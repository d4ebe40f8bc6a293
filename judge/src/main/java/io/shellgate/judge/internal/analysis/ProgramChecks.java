package io.shellgate.judge.internal.analysis;

import com.google.re2j.Pattern;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;

/**
 * Small checks of read-only programs beyond their option grammar: which operands {@code date}
 * takes, {@code @FILE} option files, {@code ps e}, package specs of {@code npm view}, and project
 * files that make a version query run the project's own code ({@code .mvn/jvm.config},
 * {@code rust-toolchain.toml}, {@code .npmrc}), which are treated like a repository's git config.
 */
final class ProgramChecks {

    /** A registry package name, with an optional version or tag: not a path, URL, git or tarball spec. */
    private static final Pattern PACKAGE = Pattern.compile(
            "(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(?:@[A-Za-z0-9._~^<>=| -]+)?");

    /**
     * A word of an ss filter that names nothing to look up: keywords and operators, socket states,
     * numeric addresses (IPv4, bracketed IPv6, with a prefix length) and ports ({@code :22}, {@code *:443}).
     */
    private static final Pattern SS_WORD = Pattern.compile("(?i)(?:state|exclude|dst|src|dport|sport|dev|fwmark|cgroup|autobound"
            + "|and|or|not|eq|neq|ne|ge|le|gt|lt|[()!<>=&|]+|all|connected|synchronized|bucket|big|established|syn-sent|syn-recv"
            + "|fin-wait-1|fin-wait-2|time-wait|closed|close-wait|last-ack|listening|listen|closing"
            + "|(?:(?:\\d{1,3}(?:\\.\\d{1,3}){0,3}|\\[[0-9a-f:.]*\\]|\\*)(?:/\\d{1,3})?)?(?::(?:\\d{1,5}|\\*))?)");

    private ProgramChecks() {}

    /**
     * Runs the check the entry names, after its options were parsed; false when it is not one of these (then it is
     * one of the checks that run before option parsing: {@link CompiledPolicy#CHECKERS} refuses other names at load).
     */
    static boolean after(Analyzer a, CommandJudge.Invocation inv, String checker, OptionParser.Parsed parsed) {
        List<Field> args = inv.argv.subList(1, inv.argv.size());
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        switch (checker) {
            case "date" -> {
                for (Field f : parsed.operands()) {
                    if (!f.isLiteral() || !f.plain().startsWith("+")) {
                        ask(a, inv, Checks.NOT_READ_ONLY, "date " + f.display() + " sets the clock (only a +FORMAT operand prints)");
                    }
                }
            }
            case "response-files" -> {
                for (Field f : parsed.operands()) {
                    if (f.plain().startsWith("@")) {
                        ask(a, inv, Checks.OPTION_NOT_PERMITTED, program + " reads more options from " + f.display());
                    }
                }
            }
            case "ps" -> {
                String problem = PsCheck.problem(args);
                if (problem != null) {
                    ask(a, inv, Checks.PRINTS_ENVIRONMENT, problem);
                }
            }
            case "ss-filter" -> {
                for (Field f : parsed.operands()) {
                    // ss joins its operands into one filter text and reads it in words
                    if (!f.isLiteral() || !java.util.Arrays.stream(f.plain().replace('(', ' ').replace(')', ' ').trim().split("\\s+"))
                            .allMatch(w -> SS_WORD.matcher(w).matches())) {
                        ask(a, inv, Checks.NOT_READ_ONLY, "ss looks the filter word " + f.display() + " up as a host or service"
                                + " name (a query to the name servers); only numeric addresses and ports, states and keywords are read-only");
                    }
                }
            }
            case "batch-only" -> {
                // interactive top reads command keys from its terminal: k signals any process of the
                // user (the judge server included), r renices, W writes its configuration file; an agent
                // that types into the terminal (Codex's write_stdin) could use them. Batch mode reads none.
                boolean batch = parsed.options().stream().map(OptionParser.Opt::name).anyMatch(n -> n.equals("-b")
                        || n.equals("--batch-mode") || n.equals("-h") || n.equals("--help") || n.equals("-v")
                        || n.equals("-V") || n.equals("--version") || n.equals("-O") || n.equals("--list-fields"));
                if (!batch) {
                    ask(a, inv, Checks.INTERACTIVE_PROGRAM, program + " without -b reads command keys from its terminal"
                            + " (k signals any process of the user, r renices one, W writes its settings): " + program
                            + " -b prints and reads no keys");
                }
            }
            case "maven-config" -> {
                project(a, inv, program, List.of(".mvn/jvm.config", ".mvn/maven.config", ".mvn/extensions.xml"),
                        "Maven's start reads it for JVM options and extensions (a -javaagent runs code)");
                sourced(a, inv, program, List.of("~/.mavenrc", "/etc/mavenrc", "/etc/mavenrc.conf"),
                        "the mvn script runs it as shell code before anything else");
            }
            case "toolchain-config" -> project(a, inv, program, List.of("rust-toolchain", "rust-toolchain.toml"),
                    "rustup picks the toolchain it names, which may be a path to a program of the project's");
            case "version-manager" -> project(a, inv, program, List.of(".python-version", ".tool-versions", ".mise.toml",
                    "mise.toml", ".mise/config.toml"), "a version manager's shim (pyenv, asdf, mise) runs the interpreter it names,"
                    + " which may be a path to a program of the project's");
            case "npm-view" -> {
                for (int i = 0; i < Math.min(1, parsed.operands().size()); i++) {
                    Field spec = parsed.operands().get(i);
                    if (!spec.isLiteral() || !PACKAGE.matcher(spec.plain()).matches()) {
                        ask(a, inv, Checks.NOT_READ_ONLY, "npm view " + spec.display() + " is not a registry package name"
                                + " (a path, URL or git repository makes npm read or run other things)");
                    }
                }
                project(a, inv, program, List.of(".npmrc"), "it can name another registry, or a git program npm runs");
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private static void project(Analyzer a, CommandJudge.Invocation inv, String program, List<String> names, String why) {
        Path cwd = inv.scope.singleCwd();
        String found = cwd == null ? "(the working directory is not known)" : a.host.projectFile(cwd, names);
        if (found != null) {
            ask(a, inv, Checks.PROJECT_CONFIG, program + " reads the project's " + found + ": " + why
                    + "; review it before running " + program + " here");
        }
    }

    /**
     * Files outside the project a program runs as code at every start ({@code ~/.mavenrc}): their
     * being there asks, since an agent may have written them and their code is not judged.
     */
    private static void sourced(Analyzer a, CommandJudge.Invocation inv, String program, List<String> files, String why) {
        Field home = inv.env.containsKey("HOME") ? inv.env.get("HOME") : inv.scope.vars.get("HOME");
        for (String f : files) {
            Path path;
            if (f.startsWith("~/")) {
                if (home == null || !home.isLiteral() || !home.plain().startsWith("/")) {
                    ask(a, inv, Checks.PROJECT_CONFIG, program + " runs " + f + " when it is there, and HOME is not known here");
                    return;
                }
                path = Path.of(home.plain(), f.substring(2));
            } else {
                path = Path.of(f);
            }
            if (a.host.realPath(path) != null || a.host.isDirectory(path)) {
                ask(a, inv, Checks.PROJECT_CONFIG, program + " runs " + path + ": " + why + "; review it before running " + program);
                return;
            }
        }
    }

    private static void ask(Analyzer a, CommandJudge.Invocation inv, String check, String message) {
        a.add(check, Tier.ASK, message, inv.span());
    }
}
