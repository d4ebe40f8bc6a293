package io.shellgate.judge.internal.analysis.builtins;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.model.Checks;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.walk.Analyzer;
import io.shellgate.rules.Tier;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The options of bash, zsh and sh ({@code set -o}, {@code set -x}, {@code shopt}, {@code setopt},
 * and the same options given to a shell when it starts), each with what it does to the judge's
 * reading of later commands. A closed list: an option known not to change what the judge assumes
 * is fine; {@code allexport} and {@code keyword} are followed; one that changes how words are
 * expanded, globbed or looked up ({@code dotglob}, {@code globsubst}, {@code promptsubst},
 * {@code extglob}, {@code autocd}...), and any option not on the list, asks.
 */
public final class ShellOptions {

    /** What turning an option on (or off) does. */
    enum Effect {
        /** Nothing the judge relies on. */
        SAFE,
        /** {@code set -a}: every later assignment is exported. */
        ALLEXPORT,
        /** {@code set +a}. */
        NO_ALLEXPORT,
        /** {@code set -k}: assignment words anywhere on a command line go to its environment. */
        KEYWORD,
        /** {@code set +k}. */
        NO_KEYWORD,
        /**
         * bash's POSIX mode ({@code set -o posix}, like setting {@code POSIXLY_CORRECT}): followed, since an
         * assignment before a special builtin then stays in the shell ({@link io.shellgate.judge.internal.analysis.walk.PosixAssignments}).
         */
        POSIX,
        /** Changes how later words are expanded, globbed or looked up, or is not known. */
        UNSAFE
    }

    /** bash's {@code set -o} names that are fine either way. */
    private static final Set<String> BASH_SAFE = Set.of("errexit", "errtrace", "functrace", "hashall", "histexpand",
            "history", "ignoreeof", "monitor", "noclobber", "noexec", "noglob", "nolog", "notify", "nounset", "onecmd",
            "pipefail", "privileged", "verbose", "vi", "emacs", "xtrace");
    /** Unsafe on: {@code cd} follows links physically. */
    private static final Set<String> BASH_UNSAFE_ON = Set.of("physical");
    /** Default on, unsafe off: braces stop expanding, {@code #} stops starting a comment. */
    private static final Set<String> BASH_UNSAFE_OFF = Set.of("braceexpand", "interactive-comments");

    private static final Map<Character, String> BASH_LETTERS = Map.ofEntries(Map.entry('a', "allexport"),
            Map.entry('b', "notify"), Map.entry('e', "errexit"), Map.entry('f', "noglob"), Map.entry('h', "hashall"),
            Map.entry('k', "keyword"), Map.entry('m', "monitor"), Map.entry('n', "noexec"), Map.entry('p', "privileged"),
            Map.entry('t', "onecmd"), Map.entry('u', "nounset"), Map.entry('v', "verbose"), Map.entry('x', "xtrace"),
            Map.entry('B', "braceexpand"), Map.entry('C', "noclobber"), Map.entry('E', "errtrace"),
            Map.entry('H', "histexpand"), Map.entry('P', "physical"), Map.entry('T', "functrace"));

    /** sh (dash, and the POSIX set): the same letters as bash where they exist. */
    private static final String SH_LETTERS = "abCefhmnuvx";

    /** shopt names that are fine either way (completion, history, messages, failing harder). */
    private static final Set<String> SHOPT_SAFE = Set.of("checkhash", "checkjobs", "checkwinsize", "cmdhist",
            "complete_fullquote", "direxpand", "dirspell", "execfail", "expand_aliases", "extquote", "failglob",
            "force_fignore", "gnu_errfmt", "histappend", "histreedit", "histverify", "hostcomplete", "huponexit",
            "inherit_errexit", "lithist", "localvar_inherit", "localvar_unset", "login_shell", "mailwarn",
            "no_empty_cmd_completion", "nocasematch", "noexpand_translation", "nullglob", "patsub_replacement",
            "progcomp", "progcomp_alias", "promptvars", "restricted_shell", "shift_verbose", "sourcepath",
            "varredir_close", "xpg_echo", "assoc_expand_once", "array_expand_once", "bash_source_fullpath");
    /** Unsafe on: globbing the judge does not model, a directory name that runs cd, the last pipe stage in this shell. */
    private static final Set<String> SHOPT_UNSAFE_ON = Set.of("autocd", "cdable_vars", "cdspell", "dotglob", "extdebug",
            "extglob", "globasciiranges", "globstar", "lastpipe", "nocaseglob", "compat31", "compat32", "compat40",
            "compat41", "compat42", "compat43", "compat44");
    private static final Set<String> SHOPT_UNSAFE_OFF = Set.of("interactive_comments", "globskipdots");

    /** zsh options (normalised: lower case, no underscores) that are fine either way. */
    private static final Set<String> ZSH_SAFE = Set.of("errexit", "errreturn", "unset", "pipefail", "xtrace", "verbose",
            "clobber", "clobberempty", "notify", "monitor", "hup", "checkjobs", "checkrunningjobs", "localoptions",
            "localtraps", "localpatterns", "localloops", "warncreateglobal", "warnnestedvar", "printexitvalue",
            "nomatch", "nullglob", "cshnullglob", "badpattern", "numericglobsort", "exec", "rcs", "globalrcs",
            "hashcmds", "hashdirs", "hashlistall", "histignorespace", "histignoredups", "histignorealldups",
            "histreduceblanks", "histverify", "histsavenodups", "histexpiredupsfirst", "histfindnodups",
            "histnostore", "histnofunctions", "histbeep", "histallowclobber", "histfcntllock", "histlexwords",
            "histsavebycopy", "appendhistory", "incappendhistory", "incappendhistorytime", "sharehistory",
            "extendedhistory", "banghist", "beep", "listbeep", "promptcr", "promptsp", "zle", "vi", "emacs",
            "autolist", "automenu", "menucomplete", "completeinword", "alwaystoend", "autoparamslash",
            "autoparamkeys", "autoremoveslash", "listtypes", "listpacked", "listrowsfirst", "listambiguous",
            "flowcontrol", "longlistjobs", "bgnice", "ignoreeof", "functionargzero", "sourcetrace", "printeightbit",
            "rmstarsilent", "rmstarwait", "pushdsilent", "pushdignoredups", "pushdminus", "pushdtohome", "autopushd",
            "continueonerror", "ksharrays", "kshoptionprint", "shoptionletters", "singlecommand", "sunkeyboardhack",
            "correct", "correctall", "recexact", "mailwarning", "markdirs", "autoresume", "singlelinezle", "aliases",
            "equals", "multios", "globalexport", "posixtraps", "trapsasync", "debugbeforecmd", "evallineno",
            "octalzeroes", "cbases", "cprecedences", "promptpercent", "transientrprompt", "combiningchars",
            "overstrike", "privileged", "interactive", "login", "restricted", "shinstdin", "glob", "bareglobqual",
            "shwordsplit", "forcefloat", "casematch");
    /** Unsafe on: globbing, expansion, quoting and lookups the judge does not model. */
    private static final Set<String> ZSH_UNSAFE_ON = Set.of("globdots", "globsubst", "promptsubst", "promptbang",
            "extendedglob", "kshglob", "rcexpandparam", "ignorebraces", "ignoreclosebraces", "braceccl", "cdablevars",
            "autocd", "pathdirs", "pathscript", "magicequalsubst", "globstarshort", "globassign", "chaselinks",
            "chasedots", "posixbuiltins", "posixcd", "posixidentifiers", "posixaliases", "posixstrings",
            "posixargzero", "shfileexpansion", "shglob", "rcquotes", "cshjunkiequotes", "cshjunkiehistory",
            "histsubstpattern", "aliasfuncdef", "shnullcmd", "cshnullcmd", "kshautoload", "kshtypeset", "kshzerosubscript",
            "typesetsilent", "typesettounset", "globcomplete", "casepaths");
    /** Default on, unsafe off: upper and lower case glob alike, {@code #} stops starting a comment. */
    private static final Set<String> ZSH_UNSAFE_OFF = Set.of("caseglob", "interactivecomments", "multibyte",
            "shortloops", "shortrepeat");

    private static final Map<Character, String> ZSH_LETTERS = Map.ofEntries(Map.entry('0', "correct"),
            Map.entry('1', "printexitvalue"), Map.entry('2', "nobadpattern"), Map.entry('3', "nonomatch"),
            Map.entry('4', "globdots"), Map.entry('5', "notify"), Map.entry('6', "bgnice"), Map.entry('7', "ignoreeof"),
            Map.entry('8', "markdirs"), Map.entry('9', "autolist"), Map.entry('B', "nobeep"), Map.entry('C', "noclobber"),
            Map.entry('D', "pushdtohome"), Map.entry('E', "pushdsilent"), Map.entry('F', "noglob"),
            Map.entry('G', "nullglob"), Map.entry('H', "rmstarsilent"), Map.entry('I', "ignorebraces"),
            Map.entry('J', "autocd"), Map.entry('K', "nobanghist"), Map.entry('L', "sunkeyboardhack"),
            Map.entry('M', "singlelinezle"), Map.entry('N', "autopushd"), Map.entry('O', "correctall"),
            Map.entry('P', "rcexpandparam"), Map.entry('Q', "pathdirs"), Map.entry('R', "longlistjobs"),
            Map.entry('S', "recexact"), Map.entry('T', "cdablevars"), Map.entry('U', "mailwarning"),
            Map.entry('V', "nopromptcr"), Map.entry('W', "autoresume"), Map.entry('X', "listtypes"),
            Map.entry('Y', "menucomplete"), Map.entry('Z', "zle"), Map.entry('a', "allexport"), Map.entry('e', "errexit"),
            Map.entry('f', "norcs"), Map.entry('g', "histignorespace"), Map.entry('h', "histignoredups"),
            Map.entry('i', "interactive"), Map.entry('k', "interactivecomments"), Map.entry('l', "login"),
            Map.entry('m', "monitor"), Map.entry('n', "noexec"), Map.entry('p', "privileged"), Map.entry('r', "restricted"),
            Map.entry('s', "shinstdin"), Map.entry('t', "singlecommand"), Map.entry('u', "nounset"),
            Map.entry('v', "verbose"), Map.entry('w', "chaselinks"), Map.entry('x', "xtrace"), Map.entry('y', "shwordsplit"));

    private ShellOptions() {}

    /** A {@code set -o} name (bash and sh: the same names). */
    static Effect bashOption(String name, boolean on) {
        return switch (name) {
            case "allexport" -> on ? Effect.ALLEXPORT : Effect.NO_ALLEXPORT;
            case "keyword" -> on ? Effect.KEYWORD : Effect.NO_KEYWORD;
            // off: the judge keeps assuming POSIX mode, which only asks more
            case "posix" -> on ? Effect.POSIX : Effect.SAFE;
            default -> of(name, on, BASH_SAFE, BASH_UNSAFE_ON, BASH_UNSAFE_OFF);
        };
    }

    private static Effect of(String name, boolean on, Set<String> safe, Set<String> unsafeOn, Set<String> unsafeOff) {
        if (safe.contains(name) || unsafeOn.contains(name) && !on || unsafeOff.contains(name) && on) {
            return Effect.SAFE;
        }
        return Effect.UNSAFE;
    }

    /** A single-letter option of {@code set} (or of the shell itself) in {@code dialect}; null when the letter is not an option. */
    static String letter(Dialect dialect, char c) {
        return switch (dialect) {
            case ZSH -> ZSH_LETTERS.get(c);
            case SH -> SH_LETTERS.indexOf(c) >= 0 ? BASH_LETTERS.get(c) : null;
            default -> BASH_LETTERS.get(c);
        };
    }

    /** An option by name in {@code dialect}. */
    static Effect option(Dialect dialect, String name, boolean on) {
        return dialect == Dialect.ZSH ? zshOption(name, on) : bashOption(name, on);
    }

    static Effect shopt(String name, boolean on) {
        return of(name, on, SHOPT_SAFE, SHOPT_UNSAFE_ON, SHOPT_UNSAFE_OFF);
    }

    /** A zsh option: any case, underscores ignored, {@code no} before the name turns it around. */
    static Effect zshOption(String name, boolean on) {
        String n = name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
        boolean value = on;
        if (!known(n) && n.startsWith("no") && known(n.substring(2))) {
            n = n.substring(2);
            value = !on;
        }
        if (n.equals("allexport")) {
            return value ? Effect.ALLEXPORT : Effect.NO_ALLEXPORT;
        }
        return of(n, value, ZSH_SAFE, ZSH_UNSAFE_ON, ZSH_UNSAFE_OFF);
    }

    private static boolean known(String n) {
        return ZSH_SAFE.contains(n) || ZSH_UNSAFE_ON.contains(n) || ZSH_UNSAFE_OFF.contains(n) || n.equals("allexport");
    }

    /** Applies an option's effect to the shell state; an unsafe one asks. */
    public static void apply(Analyzer a, Scope scope, Effect effect, String what, Span span) {
        switch (effect) {
            case SAFE -> {
                // nothing the judge follows
            }
            case ALLEXPORT -> scope.options.allexport = true;
            case NO_ALLEXPORT -> scope.options.allexport = false;
            case KEYWORD -> scope.options.keyword = true;
            case NO_KEYWORD -> scope.options.keyword = false;
            case POSIX -> scope.options.posix = true;
            case UNSAFE -> a.add(Checks.SHELL_STATE, Tier.ASK, what + " changes how the shell expands, globs or looks up"
                    + " later commands in a way shellgate does not follow", span);
        }
    }
}
