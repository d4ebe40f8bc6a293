package io.shellgate.judge.internal.analysis.programs;

import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.walk.CheckContext;
import io.shellgate.judge.internal.analysis.walk.CommandJudge;
import io.shellgate.judge.internal.analysis.walk.Invocation;
import io.shellgate.judge.internal.analysis.walk.ProgramCheck;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;

/**
 * Project files that make a version query run the project's own code ({@code .mvn/jvm.config},
 * {@code rust-toolchain.toml}, {@code .python-version}), treated like a repository's git config,
 * and files outside the project a program runs as code at every start ({@code ~/.mavenrc}).
 *
 * @param files the project's files the program reads, relative to the working directory
 * @param why what the program does with them
 * @param startFiles the files outside the project it runs as shell code at start ({@code ~/} is HOME)
 * @param startWhy how it runs them
 */
public record ProjectConfigCheck(List<String> files, String why, List<String> startFiles, String startWhy) implements ProgramCheck {

    /** {@code mvn}: Maven's project configuration and the mavenrc files its script sources. */
    public static final ProjectConfigCheck MAVEN = new ProjectConfigCheck(
            List.of(".mvn/jvm.config", ".mvn/maven.config", ".mvn/extensions.xml"),
            "Maven's start reads it for JVM options and extensions (a -javaagent runs code)",
            List.of("~/.mavenrc", "/etc/mavenrc", "/etc/mavenrc.conf"), "the mvn script runs it as shell code before anything else");
    /** {@code cargo}, {@code rustc} through rustup. */
    public static final ProjectConfigCheck TOOLCHAIN = new ProjectConfigCheck(List.of("rust-toolchain", "rust-toolchain.toml"),
            "rustup picks the toolchain it names, which may be a path to a program of the project's", List.of(), "");
    /** The shims of pyenv, asdf and mise. */
    public static final ProjectConfigCheck VERSION_MANAGER = new ProjectConfigCheck(List.of(".python-version", ".tool-versions",
            ".mise.toml", "mise.toml", ".mise/config.toml"), "a version manager's shim (pyenv, asdf, mise) runs the interpreter it names,"
            + " which may be a path to a program of the project's", List.of(), "");

    @Override
    public void after(CheckContext a, Invocation inv, ReadOnlyCommand entry, OptionParser.Parsed parsed) {
        String program = CommandJudge.basename(inv.argv.getFirst().plain());
        project(a, inv, program, files, why);
        if (!startFiles.isEmpty()) {
            sourced(a, inv, program, startFiles, startWhy);
        }
    }

    static void project(CheckContext a, Invocation inv, String program, List<String> names, String why) {
        Path cwd = inv.scope.singleCwd();
        String found = cwd == null ? "(the working directory is not known)" : a.host().projectFile(cwd, names);
        if (found != null) {
            ask(a, inv, Checks.PROJECT_CONFIG, program + " reads the project's " + found + ": " + why
                    + "; review it before running " + program + " here");
        }
    }

    /**
     * Files outside the project a program runs as code at every start ({@code ~/.mavenrc}): their
     * being there asks, since an agent may have written them and their code is not judged.
     */
    static void sourced(CheckContext a, Invocation inv, String program, List<String> files, String why) {
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
            if (a.host().realPath(path) != null || a.host().isDirectory(path)) {
                ask(a, inv, Checks.PROJECT_CONFIG, program + " runs " + path + ": " + why + "; review it before running " + program);
                return;
            }
        }
    }

    private static void ask(CheckContext a, Invocation inv, String check, String message) {
        a.add(check, Tier.ASK, message, inv.span());
    }
}
