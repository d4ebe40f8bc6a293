package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.CommandInfo;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.windows.SystemPrograms;
import io.shellgate.judge.internal.windows.WindowsArgv;
import io.shellgate.judge.internal.windows.WindowsChecks;
import io.shellgate.judge.internal.windows.WindowsCommand;
import io.shellgate.judge.internal.windows.WindowsHost;
import io.shellgate.judge.internal.windows.WindowsPaths;
import io.shellgate.judge.internal.windows.WindowsRules;
import io.shellgate.judge.internal.windows.WindowsShells;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One cmd command: its name canonical (any case, carets and quotes gone, {@code rd/s} split,
 * {@code .exe .com .bat .cmd} dropped), the policy's rules, then the read-only list, or ask.
 */
final class CmdCommands {

    static final Set<String> INTERNAL = Set.of("assoc", "break", "call", "cd", "chdir", "cls", "color", "copy", "date", "del",
            "dir", "echo", "endlocal", "erase", "exit", "for", "ftype", "goto", "if", "md", "mkdir", "mklink", "move", "path",
            "pause", "popd", "prompt", "pushd", "rd", "ren", "rename", "rem", "rmdir", "set", "setlocal", "shift", "start",
            "time", "title", "type", "ver", "verify", "vol");
    private static final Set<String> READ_ONLY_INTERNAL = Set.of("dir", "type", "echo", "cd", "chdir", "ver", "rem", "vol", "cls");
    private static final Set<String> DOWNLOADERS = Set.of("curl", "wget", "bitsadmin", "certutil");
    private static final Set<String> RUNS_INPUT = Set.of("powershell", "pwsh", "cmd", "bash", "sh", "python", "node", "perl");

    private final CmdJudge judge;
    private final WindowsHost host;
    final CmdReads reads;

    CmdCommands(CmdJudge judge) {
        this.judge = judge;
        this.host = judge.host;
        this.reads = new CmdReads(judge);
    }

    /** A word's value, or null when part of it is not known here (a variable, a for loop's variable). */
    String value(CmdToken t) {
        if (!t.known() || t.text().contains("%~")) {
            return null;
        }
        for (String v : judge.loopVariables) {
            if (t.text().contains(v)) {
                return null;
            }
        }
        return t.text();
    }

    boolean simple(CmdAst.Simple s, boolean upstream) {
        int mark = host.mark();
        reads.redirects(s.redirects());
        if (s.words().isEmpty()) {
            return false;
        }
        String raw = value(s.words().getFirst());
        List<String> argv = new ArrayList<>();
        s.words().forEach(w -> argv.add(value(w) == null ? "?" : value(w)));
        if (raw == null) {
            host.report(WindowsChecks.DYNAMIC_COMMAND, Tier.ASK, "the command name is a variable whose value is not known here ("
                    + s.words().getFirst().span().of(judge.text) + ")", s.span());
            host.command(argv, CommandInfo.UNKNOWN, host.tierSince(mark), s.span());
            return false;
        }
        if (raw.startsWith("@")) {
            raw = raw.substring(1);
        }
        List<String> args = new ArrayList<>();
        String name = split(raw, args);
        for (int i = 1; i < s.words().size(); i++) {
            args.add(value(s.words().get(i)));
        }
        String lower = name.toLowerCase(Locale.ROOT);
        boolean internal = INTERNAL.contains(lower);
        String base = internal ? lower : WindowsShells.baseName(name);
        if (base.endsWith(".bat") || base.endsWith(".cmd")) {
            base = base.substring(0, base.length() - 4);
        }
        argv.set(0, base);
        canonicalRules(base, args, s.span());
        String resolved = internal ? CommandInfo.BUILTIN : CommandInfo.UNKNOWN;
        boolean downloads = false;
        if (internal) {
            internal(base, args, s, upstream);
        } else {
            if (name.contains("\\") || name.contains("/")) {
                reads.resolve(name, s.span(), base);
            }
            WindowsHost.Program program = host.at(judge.cwd).program(name, true);
            resolved = program.path() == null ? CommandInfo.NOT_FOUND : program.path();
            downloads = external(name, base, program, args, s, upstream);
        }
        host.command(argv, resolved, host.tierSince(mark), s.span());
        return downloads;
    }

    /**
     * {@code set NAME} prints the variables whose names start with NAME: allowed when none of those
     * in the environment marks a secret; {@code set} alone prints them all and asks.
     */
    private void printVariables(List<String> args, Span span) {
        String prefix = args.size() == 1 ? args.getFirst() : null;
        if (prefix == null || prefix.isEmpty() || !prefix.chars().allMatch(c -> c < 0x80 && (Character.isLetterOrDigit(c) || c == '_'))) {
            host.report(WindowsChecks.PRINTS_ENVIRONMENT, Tier.ASK, "set prints the environment, which may hold secrets", span);
            return;
        }
        String lower = prefix.toLowerCase(Locale.ROOT);
        host.env().keySet().stream().filter(k -> k.toLowerCase(Locale.ROOT).startsWith(lower) && host.secretVariable(k))
                .findFirst().ifPresent(k -> host.report(WindowsChecks.SECRET_VARIABLE, Tier.ASK, "set " + prefix
                        + " prints the variables whose names start with it, among them " + k + ", whose name marks a secret", span));
    }

    /** The command name of the first word, and what follows it glued on ({@code rd/s/q}, {@code echo.}, {@code cd..}). */
    private static String split(String first, List<String> args) {
        String lower = first.toLowerCase(Locale.ROOT);
        for (int i = 1; i < first.length(); i++) {
            char c = first.charAt(i);
            if ("/.(\\+[]:".indexOf(c) >= 0 && INTERNAL.contains(lower.substring(0, i))) {
                String rest = c == '.' && lower.startsWith("echo") || c == '(' ? first.substring(i + 1) : first.substring(i);
                if (!rest.isEmpty()) {
                    args.add(rest);
                }
                return first.substring(0, i);
            }
        }
        return first;
    }

    /** Options ({@code /S/Q} is {@code /s} and {@code /q}; {@code /w:C:} is {@code /w}) and operands for the rules. */
    private void canonicalRules(String base, List<String> args, Span span) {
        List<String> options = new ArrayList<>();
        List<String> operands = new ArrayList<>();
        for (String a : args) {
            if (isSwitch(a)) {
                String o = a.toLowerCase(Locale.ROOT);
                int colon = o.indexOf(':');
                if (colon > 0) {
                    options.add(o.substring(0, colon));
                } else {
                    for (String part : WindowsPaths.split(o.substring(1), '/')) {
                        if (!part.isEmpty()) {
                            options.add("/" + part);
                        }
                    }
                }
            } else {
                operands.add(a);
            }
        }
        WindowsRules.check(host, Dialect.CMD, new WindowsCommand(base, options, operands, span), judge.cwd);
    }

    private void internal(String base, List<String> args, CmdAst.Simple s, boolean upstream) {
        switch (base) {
            case "cd", "chdir" -> {
                List<String> dirs = args.stream().filter(a -> a == null || !a.equalsIgnoreCase("/d")).toList();
                if (!dirs.isEmpty()) {
                    String dir = dirs.contains(null) ? null : String.join(" ", dirs);
                    reads.resolve(dir, s.span(), base);
                    boolean drive = args.stream().anyMatch(a -> a != null && a.equalsIgnoreCase("/d"));
                    if (drive || dir == null || !otherDrive(dir, judge.cwd)) {
                        judge.cwd = judge.location(dir);
                    }
                }
            }
            case "dir", "type" -> {
                for (String a : args) {
                    if (!isSwitch(a) || base.equals("type")) {
                        reads.path(a, s.span(), base);
                    }
                }
            }
            case "pushd", "popd" -> {
                // pushd to a share maps a network drive: resolve asks for shares, devices and what is not known here
                String dir = base.equals("popd") || args.isEmpty() || args.contains(null) ? null : String.join(" ", args);
                if (base.equals("pushd") && !args.isEmpty()) {
                    reads.resolve(dir, s.span(), base);
                }
                // after popd the directory is the one an earlier pushd left, which is not followed here
                judge.cwd = dir == null ? (args.isEmpty() && base.equals("pushd") ? judge.cwd : null) : judge.location(dir);
            }
            case "call" -> {
                if (s.rest().contains("%") || s.rest().strip().startsWith(":")) {
                    host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, "call expands %variables% a second time or jumps to a label",
                            s.span());
                } else {
                    host.at(judge.cwd).nested(s.rest(), Dialect.CMD, false, s.span());
                }
                // what call ran happened in this cmd: a cd in it moved the directory
                judge.cwd = null;
            }
            case "echo", "rem" -> {
                if (s.words().size() > 1) {
                    // everything after the name is printed (or ignored) as one text
                    host.data(new Span(s.words().get(1).span().start(), s.words().getLast().span().end()));
                }
            }
            case "set" -> {
                if (s.rest().contains("=")) {
                    host.report(WindowsChecks.ENVIRONMENT, Tier.ASK, "set changes the environment of the commands that follow",
                            s.span());
                } else {
                    printVariables(args, s.span());
                }
            }
            case "start" -> {
                host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, "start runs a program or opens a document or address", s.span());
                String target = startTarget(s);
                if (target != null && !target.isBlank()) {
                    host.at(judge.cwd).nested(target, Dialect.CMD, false, s.span());
                }
            }
            case "path", "verify", "date", "time" -> {
                // with an argument they set the PATH, the verify flag, the clock; date and time without /t prompt to
                boolean prints = args.isEmpty() ? !base.equals("date") && !base.equals("time")
                        : args.size() == 1 && "/t".equalsIgnoreCase(args.getFirst()) && (base.equals("date") || base.equals("time"));
                if (!prints) {
                    host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, base + " with these arguments changes the system", s.span());
                }
            }
            default -> {
                if (!READ_ONLY_INTERNAL.contains(base)) {
                    host.report(WindowsChecks.NOT_READ_ONLY, Tier.ASK, base + " is not on the read-only list", s.span());
                }
            }
        }
    }

    /** Whether {@code dir} names a drive letter other than the one {@code cwd} is on (cd without /d leaves the drive). */
    private static boolean otherDrive(String dir, String cwd) {
        boolean letter = dir.length() >= 2 && dir.charAt(1) == ':' && Character.isLetter(dir.charAt(0));
        return letter && (cwd == null || cwd.length() < 2 || cwd.charAt(1) != ':'
                || Character.toLowerCase(cwd.charAt(0)) != Character.toLowerCase(dir.charAt(0)));
    }

    /** Whether an argument is a switch ({@code /s}, {@code /enum}, {@code /a:-h}, {@code /s/q}) rather than a path ({@code /home/x}). */
    static boolean isSwitch(String a) {
        return SystemPrograms.isSwitch(a);
    }

    /** The raw text after the command name, without its redirections, as cmd hands it to a program. */
    private String programText(CmdAst.Simple s) {
        if (s.words().size() < 2) {
            return "";
        }
        int from = s.words().get(1).span().start();
        int to = s.words().getLast().span().end();
        StringBuilder raw = new StringBuilder();
        int at = from;
        for (CmdToken r : s.redirects()) {
            if (r.span().start() >= at && r.span().end() <= to) {
                raw.append(judge.text, at, r.span().start());
                at = r.span().end();
            }
        }
        raw.append(judge.text, at, to);
        return raw.toString();
    }

    /** The arguments a program gets, as its C runtime splits what cmd hands it; null when part is not known here. */
    private List<String> programArgs(CmdAst.Simple s) {
        String raw = programText(s);
        for (String v : judge.loopVariables) {
            if (raw.contains(v)) {
                return null;
            }
        }
        String line = CmdTokenizer.programLine(raw, host.env());
        return line == null ? null : WindowsArgv.split(line);
    }

    /** What {@code start} runs: the raw text after its options and its quoted title. */
    private String startTarget(CmdAst.Simple s) {
        List<CmdToken> w = s.words();
        int i = 1;
        while (i < w.size()) {
            String v = value(w.get(i));
            if (v == null) {
                return null;
            }
            if (v.startsWith("/")) {
                i += v.equalsIgnoreCase("/d") ? 2 : 1;
            } else if (i == 1 && w.get(i).quoted()) {
                i++;
            } else {
                break;
            }
        }
        return i < w.size() ? judge.text.substring(w.get(i).span().start(), s.span().end()) : null;
    }

    private boolean external(String name, String base, WindowsHost.Program program, List<String> args, CmdAst.Simple s,
            boolean upstream) {
        List<String> argv = programArgs(s);
        if (WindowsShells.isWindowsShell(base)) {
            if (!program.trusted()) {
                host.report(WindowsChecks.UNTRUSTED_PROGRAM, Tier.ASK, name + ": " + program.why(), s.span());
            }
            if (argv == null) {
                host.report(WindowsChecks.DYNAMIC_CODE, Tier.ASK, base + " runs code computed at run time", s.span());
            } else {
                judge.run(base, argv, base.equals("cmd") ? CmdTokenizer.programLine(programText(s), host.env()) : null, upstream,
                        s.span());
            }
            return false;
        }
        if (upstream && RUNS_INPUT.contains(base)) {
            WindowsShells.downloadToShell(host, s.span(), "content from the network is piped into " + base);
            return false;
        }
        if (SystemPrograms.covers(base)) {
            // cmd runs only on Windows: these names are Windows' own programs, whatever a Unix one of that name does.
            // Judged away from Windows, one found nowhere (not planted in the working directory either) is System32's.
            boolean system32 = program.path() == null && !host.windows() && !name.contains("\\") && !name.contains("/");
            if (!system32 && (program.path() == null || !program.trusted())) {
                host.report(WindowsChecks.UNTRUSTED_PROGRAM, Tier.ASK, name + ": " + program.why(), s.span());
            }
            SystemPrograms.judge(host, judge.cwd, base, args, s.span());
            return false;
        }
        if (program.path() == null || !program.trusted()) {
            host.report(WindowsChecks.UNTRUSTED_PROGRAM, Tier.ASK, name + ": " + program.why(), s.span());
        } else if (argv == null) {
            host.report(WindowsChecks.DYNAMIC_ARGUMENT, Tier.ASK, base + " gets an argument whose value is not known here",
                    s.span());
        } else {
            // cmd found nothing planted in the working directory: the words are judged as the bash judge judges them
            List<String> words = new ArrayList<>();
            words.add(name.contains("\\") || name.contains("/") ? name : base);
            words.addAll(argv);
            host.at(judge.cwd).nativeProgram(words, s.span());
        }
        return DOWNLOADERS.contains(base);
    }
}
