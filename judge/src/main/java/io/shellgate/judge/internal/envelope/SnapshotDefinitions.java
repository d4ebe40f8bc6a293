package io.shellgate.judge.internal.envelope;

import io.shellgate.judge.internal.syntax.Command;
import io.shellgate.judge.internal.syntax.Redirect;
import io.shellgate.judge.internal.syntax.Script;
import io.shellgate.judge.internal.syntax.Word;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a shell snapshot an agent sources before each command, accepting it only when sourcing it
 * runs nothing: function definitions (whose bodies sourcing does not run), aliases, shell options
 * that do not change what a command line does, {@code unalias}, and exports of fixed values. Any
 * other line makes the snapshot {@link Read.Refused refused}: the agent's edit tool can write this
 * file, and whatever it holds runs before every command.
 */
final class SnapshotDefinitions {

    /**
     * Names the envelopes themselves run after sourcing (Claude Code's {@code \builtin},
     * {@code eval}, {@code pwd}; Codex's {@code [}, {@code export}, {@code exec}) and names Claude
     * Code's own functions call: a function of one of these names would run in their place.
     */
    private static final Set<String> ENVELOPE_NAMES = Set.of("builtin", "command", "eval", "pwd", "true", "false", "source",
            ".", "shopt", "setopt", "unsetopt", "unalias", "unset", "exec", "export", "[", "test", "printf", "echo", "local",
            "typeset", "declare", "hash", "alias", "compgen", "env", "set", "emulate", "exit", "return", "trap", ":", "cd", "read");

    /** Reserved words, which an alias must not be named (a line's structure would change). */
    private static final Set<String> RESERVED = Set.of("if", "then", "else", "elif", "fi", "case", "esac", "for", "select",
            "while", "until", "do", "done", "in", "function", "time", "coproc", "{", "}", "!", "[[", "]]", "repeat",
            "foreach", "end", "nocorrect", "noglob");

    /** bash options on by default in a shell that runs {@code -c}. */
    private static final Set<String> SHOPT_DEFAULT_ON = Set.of("checkwinsize", "cmdhist", "complete_fullquote", "extquote",
            "force_fignore", "globasciiranges", "globskipdots", "hostcomplete", "interactive_comments", "patsub_replacement",
            "progcomp", "promptvars", "sourcepath");

    /** bash options that change only what an interactive shell does, or nothing a command line relies on. */
    private static final Set<String> SHOPT_HARMLESS = Set.of("autocd", "cdspell", "checkhash", "checkjobs", "checkwinsize",
            "cmdhist", "complete_fullquote", "direxpand", "dirspell", "expand_aliases", "extglob", "force_fignore",
            "gnu_errfmt", "histappend", "histreedit", "histverify", "hostcomplete", "huponexit", "lithist", "login_shell",
            "mailwarn", "no_empty_cmd_completion", "progcomp", "progcomp_alias", "promptvars", "restricted_shell",
            "sourcepath");

    /** {@code set -o} options that change no command's meaning (or only make a failure end the line sooner). */
    private static final Set<String> SET_O = Set.of("braceexpand", "hashall", "interactive-comments", "monitor", "emacs",
            "vi", "history", "histexpand", "ignoreeof", "notify", "nolog", "errexit", "nounset", "noclobber", "pipefail");

    /** zsh options that concern only the interactive line editor, history and completion. */
    private static final Set<String> SETOPT = Set.of("alwaystoend", "appendhistory", "autocd", "autolist", "automenu",
            "autoparamkeys", "autoparamslash", "autopushd", "autoremoveslash", "completeinword", "extendedhistory",
            "histexpiredupsfirst", "histfindnodups", "histignorealldups", "histignoredups", "histignorespace",
            "histreduceblanks", "histsavenodups", "histverify", "incappendhistory", "interactive", "interactivecomments",
            "listambiguous", "listpacked", "listtypes", "login", "menucomplete", "monitor", "nobeep", "nolistbeep",
            "pushdignoredups", "pushdminus", "pushdsilent", "sharehistory", "shinstdin", "zle", "promptsubst",
            "promptpercent", "promptcr", "promptsp", "noflowcontrol", "nohup", "nocheckjobs", "correct", "nocorrect",
            "hashlistall", "listrowsfirst", "bangHist".toLowerCase());

    /** Variables whose value shells set themselves, which a snapshot carries over harmlessly. */
    private static final Set<String> SHELL_OWN = Set.of("SHLVL", "_", "OLDPWD", "PWD");

    private SnapshotDefinitions() {}

    /** What a snapshot's text is, for the envelope. */
    sealed interface Read {

        /**
         * Only definitions.
         *
         * @param path the value of the last {@code PATH} export, or null when it sets none
         * @param exports the other exported names and their values (null for {@code export NAME})
         * @param functions the functions it defines, in order
         * @param aliases the aliases in force after it, with their values
         */
        record Definitions(String path, Map<String, String> exports, Set<String> functions, Map<String, String> aliases)
                implements Read {}

        /** Something in it runs, or is not understood. */
        record Refused(String why) implements Read {}
    }

    /** Reads {@code text}, the whole snapshot. */
    static Read read(String text) {
        Script s = Parsing.clean(text);
        if (s == null) {
            return new Read.Refused("does not parse completely");
        }
        State st = new State();
        List<Command> top = new ArrayList<>();
        flatten(s.body(), top);
        for (Command c : top) {
            String why = st.accept(c);
            if (why != null) {
                return new Read.Refused(why);
            }
        }
        return new Read.Definitions(st.path, Map.copyOf(st.exports), Set.copyOf(st.functions), Map.copyOf(st.aliases));
    }

    private static void flatten(Command c, List<Command> out) {
        if (c instanceof Command.Sequence seq) {
            seq.items().forEach(i -> flatten(i, out));
        } else {
            out.add(c);
        }
    }

    /** What the lines read so far define. */
    private static final class State {
        String path;
        final Map<String, String> exports = new LinkedHashMap<>();
        final Set<String> functions = new LinkedHashSet<>();
        final Map<String, String> aliases = new LinkedHashMap<>();

        /** Null when {@code c} only defines; else why not. */
        String accept(Command c) {
            return switch (c) {
                case Command.FunctionDef f -> function(f.name());
                case Command.Simple s -> simple(s);
                default -> "runs a compound command";
            };
        }

        private String function(String name) {
            if (name == null || ENVELOPE_NAMES.contains(name) || RESERVED.contains(name)) {
                return "defines a function named " + name + ", which the envelope itself runs";
            }
            functions.add(name);
            return null;
        }

        private String simple(Command.Simple s) {
            if (!s.assignments().isEmpty() || s.words().isEmpty()) {
                return "assigns a variable";
            }
            List<String> words = new ArrayList<>();
            for (Word w : s.words()) {
                String lit = w.literal();
                if (lit == null) {
                    return "expands something in " + words;
                }
                words.add(lit);
            }
            if (!s.redirects().stream().allMatch(State::discards)) {
                return "redirects to a file";
            }
            String name = words.getFirst();
            List<String> args = words.subList(1, words.size());
            return switch (name) {
                case "true" -> args.isEmpty() ? null : "runs true with arguments";
                case "unalias" -> unalias(args);
                case "alias" -> alias(args);
                case "shopt" -> shopt(args);
                case "set" -> args.size() == 2 && args.get(0).equals("-o") && SET_O.contains(args.get(1)) ? null
                        : "sets shell options " + args;
                case "setopt" -> args.stream().allMatch(o -> SETOPT.contains(o.toLowerCase().replace("_", ""))) ? null
                        : "sets zsh options " + args;
                case "export" -> exports(args, 0);
                case "declare", "typeset" -> args.isEmpty() || !args.getFirst().equals("-x") ? "declares " + args
                        : exports(args, 1);
                case "eval" -> eval(args);
                default -> "runs " + name;
            };
        }

        /** {@code >/dev/null}, {@code 2>/dev/null}, {@code 2>&1}. */
        private static boolean discards(Redirect r) {
            String target = r.target() == null ? null : r.target().literal();
            return r.heredoc() == null && target != null && ((r.op().equals(">") || r.op().equals(">>")) && target.equals("/dev/null")
                    || r.op().equals(">&") && (target.equals("1") || target.equals("2")));
        }

        private String unalias(List<String> args) {
            if (args.equals(List.of("-a"))) {
                aliases.clear();
                return null;
            }
            for (String a : args) {
                if (a.startsWith("-") && !a.equals("--")) {
                    return "unalias " + a;
                }
                aliases.remove(a);
            }
            return null;
        }

        private String alias(List<String> args) {
            List<String> defs = !args.isEmpty() && args.getFirst().equals("--") ? args.subList(1, args.size()) : args;
            for (String d : defs) {
                int eq = d.indexOf('=');
                String name = eq <= 0 ? null : d.substring(0, eq);
                if (name == null || RESERVED.contains(name) || !name.matches("[A-Za-z0-9_.+:@%-]+")) {
                    return "alias " + d;
                }
                aliases.put(name, d.substring(eq + 1));
            }
            return null;
        }

        private static String shopt(List<String> args) {
            if (args.size() < 2 || !(args.get(0).equals("-s") || args.get(0).equals("-u"))) {
                return "shopt " + args;
            }
            boolean on = args.get(0).equals("-s");
            for (String o : args.subList(1, args.size())) {
                boolean isDefault = SHOPT_DEFAULT_ON.contains(o) == on;
                if (!isDefault && !SHOPT_HARMLESS.contains(o)) {
                    return "shopt " + args.get(0) + " " + o + ", which changes how a command line is read";
                }
            }
            return null;
        }

        private String exports(List<String> args, int from) {
            for (String a : args.subList(from, args.size())) {
                int eq = a.indexOf('=');
                String name = eq < 0 ? a : a.substring(0, eq);
                if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                    return "exports " + a;
                }
                if (name.equals("PATH")) {
                    if (eq < 0) {
                        continue;
                    }
                    path = a.substring(eq + 1);
                } else if (!SHELL_OWN.contains(name)) {
                    exports.put(name, eq < 0 ? null : a.substring(eq + 1));
                }
            }
            return null;
        }

        /** Claude Code writes each bash function as {@code eval 'name () { … }' >/dev/null 2>&1}. */
        private String eval(List<String> args) {
            List<String> rest = !args.isEmpty() && args.getFirst().equals("--") ? args.subList(1, args.size()) : args;
            Script inner = rest.size() == 1 ? Parsing.clean(rest.getFirst()) : null;
            if (inner == null || !(inner.body() instanceof Command.FunctionDef f)) {
                return "evaluates text that is not one function definition";
            }
            return function(f.name());
        }
    }
}
