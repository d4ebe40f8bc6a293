package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.model.Stdin;
import io.shellgate.judge.internal.syntax.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The state of one invocation while wrappers are stripped from it. */
public final class Invocation {
    public final Command.Simple node;
    public final Scope scope;
    public Stdin stdin;
    public List<Field> argv;
    public final Map<String, Field> env;
    final List<String> wrappers = new ArrayList<>();
    boolean skipFunctions;
    public boolean builtinOnly;
    boolean dynamicName;
    /** Whether the first word expanded to nothing, so that the first field is already an argument. */
    boolean nameVanished;
    /** Whether some word expanded to nothing (an unset variable), so that a wrapper may look bare. */
    boolean anyVanished;
    String resolved = CommandInfo.UNKNOWN;
    /** Whether the program has read-only subcommands, and this is none of them. */
    boolean unknownSubcommand;
    /** Why the read-only entries that know this command did not accept it. */
    final List<String> problems = new ArrayList<>();
    /** Values of options that run them as commands, judged as shell code after the entries ({@link OptionValues}). */
    final List<Field> code = new ArrayList<>();
    /** The names assigned before the command ({@code NAME=value cmd}), in force while eval runs its text. */
    public List<String> prefix = List.of();

    Invocation(Command.Simple node, Scope scope, Stdin stdin, List<Field> argv, Map<String, Field> env) {
        this.node = node;
        this.scope = scope;
        this.stdin = stdin;
        this.argv = argv;
        this.env = env;
    }

    public Span span() {
        return node.span();
    }

    /** The command's PATH when it is known text; empty when unset, null when computed at run time. */
    public String path() {
        Field p = env.get("PATH");
        return p != null && p.isLiteral() ? p.text() : (p == null ? "" : null);
    }
}
