package io.shellgate.launcher;

import io.shellgate.launcher.internal.ApprovalsCommand;
import io.shellgate.launcher.internal.AttachCommand;
import io.shellgate.launcher.internal.CheckCommand;
import io.shellgate.launcher.internal.LogCommand;
import io.shellgate.launcher.internal.ExplainCommand;
import io.shellgate.launcher.internal.PolicyCommand;
import io.shellgate.launcher.internal.ServeCommand;
import io.shellgate.launcher.internal.SetupCommand;
import io.shellgate.launcher.internal.ShellJudgeCommand;
import io.shellgate.launcher.internal.DoctorCommand;
import io.shellgate.launcher.internal.HookCommand;
import io.shellgate.launcher.internal.WrapCommand;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.pty.ShellCommand;
import io.shellgate.launcher.internal.session.SessionCommand;
import io.shellgate.launcher.internal.Version;
import java.io.InputStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code shellgate} command line. */
@Command(
        name = "shellgate",
        mixinStandardHelpOptions = true,
        versionProvider = Version.class,
        description = {"A gate between AI agents and the shell: judges every command line allow, ask or deny.",
            "As a drop-in shell: shellgate -c 'COMMAND' runs COMMAND with the real shell if it is allowed,",
            "and refuses it (exit 126) otherwise; without -c it reads commands from standard input."},
        subcommands = {CheckCommand.class, ExplainCommand.class, PolicyCommand.class, ServeCommand.class, DoctorCommand.class,
            WrapCommand.class, AttachCommand.class, HookCommand.class, SetupCommand.class, ApprovalsCommand.class, LogCommand.class, ShellCommand.class, ShellJudgeCommand.class, SessionCommand.class, CommandLine.HelpCommand.class},
        footer = {"", "Exit codes: 0 allow/success, 2 usage error, 3 policy error, 4 other error, 5 the audit log was changed",
            "(log --verify), 10 ask, 20 deny; shellgate -c: the command's own, or 126 when it was refused."})
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (args.length == 1 && args[0].equals("__judge-request")) {
            // the drop-in shell's cold path: no command line to build
            try {
                PrintWriter out = new PrintWriter(System.out, false, java.nio.charset.StandardCharsets.UTF_8);
                System.exit(ShellJudgeCommand.answer(System.in, out));
            } catch (java.io.IOException e) {
                System.err.println("shellgate: cannot read the request: " + e.getMessage());
                System.exit(ExitCode.ERROR.code());
            }
        }
        if (args.length == 2 && args[0].equals("__docs")) {
            // the build's man page and shell completion, made from this command line's own model
            System.exit(io.shellgate.launcher.internal.CommandDocs.print(args[1], commandLine(System.in), System.out));
        }
        if (args.length == 2 && args[0].equals("__aot-training")) {
            // what the launcher script's AOT cache is made from (see AotTraining)
            System.exit(io.shellgate.launcher.internal.AotTraining.run(args[1]));
        }
        java.util.Optional<io.shellgate.launcher.internal.server.BatchRelay.Simple> batch =
                io.shellgate.launcher.internal.server.BatchRelay.Simple.of(args);
        if (batch.isPresent()) {
            // check --batch through a judge server that runs, before anything else is loaded; else
            // judged here without building the whole command line's model (a tenth of a cold batch)
            java.util.Optional<Integer> relayed = io.shellgate.launcher.internal.server.BatchRelay.relay(batch.get(),
                    System.getenv(), System.in);
            if (relayed.isPresent()) {
                System.exit(relayed.get());
            }
            io.shellgate.judge.Dialect dialect = io.shellgate.judge.Dialect.parse(batch.get().dialect());
            if (dialect != null) {
                PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(new java.io.FileOutputStream(java.io.FileDescriptor.out),
                        java.nio.charset.StandardCharsets.UTF_8), false);
                int code = CheckCommand.batch(batch.get().cwd(), dialect, System.in, out, new PrintWriter(System.err, true));
                out.flush();
                System.exit(code);
            }
        }
        io.shellgate.reviewer.AuditExport.muteSdkWarnings();
        // JSON Lines are UTF-8 whatever the locale, as the judge server's answers to a relayed batch are;
        // the batch flushes when it waits for an answer, not after every line
        PrintWriter out = java.util.Arrays.asList(args).contains("--batch")
                ? new PrintWriter(new java.io.OutputStreamWriter(new java.io.FileOutputStream(java.io.FileDescriptor.out),
                        java.nio.charset.StandardCharsets.UTF_8), false)
                : new PrintWriter(System.out, true);
        int code = run(args, System.in, out, new PrintWriter(System.err, true));
        out.flush();
        System.exit(code);
    }

    /** Runs the command line and returns its exit code; never calls {@code System.exit}. */
    public static int run(String[] args, InputStream in, PrintWriter out, PrintWriter err) {
        CommandLine cli = commandLine(in);
        cli.setOut(out);
        cli.setErr(err);
        cli.setExitCodeExceptionMapper(e -> ExitCode.ERROR.code());
        cli.setParameterExceptionHandler((e, a) -> {
            err.println("shellgate: " + e.getMessage());
            String name = e.getCommandLine().getCommandName();
            if ((name.equals("check") || name.equals("explain")) && e instanceof CommandLine.UnmatchedArgumentException u
                    && u.getUnmatched().stream().anyMatch(w -> w.startsWith("-"))) {
                err.println("To judge a command line whose words start with an option, put -- before it: shellgate "
                        + name + " -- " + String.join(" ", commandAfter(e.getCommandLine().getCommandSpec(), a, name)));
            }
            err.println("Run 'shellgate " + e.getCommandLine().getCommandName().replace("shellgate", "").trim()
                    + (e.getCommandLine().getCommandName().equals("shellgate") ? "" : " ") + "--help' for usage.");
            return ExitCode.USAGE.code();
        });
        cli.setExecutionExceptionHandler((e, c, r) -> {
            err.println("shellgate: internal error: " + e);
            return ExitCode.ERROR.code();
        });
        return cli.execute(args);
    }

    /** The command line's model, every subcommand in it (also what the man page and completion are made from). */
    public static CommandLine commandLine(InputStream in) {
        CommandLine cli = new CommandLine(new Main(), new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> cls) throws Exception {
                if (cls == CheckCommand.class) {
                    return cls.cast(new CheckCommand(in));
                }
                if (cls == ShellJudgeCommand.class) {
                    return cls.cast(new ShellJudgeCommand(in));
                }
                if (cls == SessionCommand.class) {
                    return cls.cast(new SessionCommand(in));
                }
                if (cls == HookCommand.class) {
                    return cls.cast(new HookCommand(in));
                }
                return CommandLine.defaultFactory().create(cls);
            }
        });
        paragraphs(cli);
        return cli;
    }

    /**
     * The help texts are written as lines of source; picocli lays each element out as a line of its own, wrapped
     * again at the terminal's width, which broke sentences twice. Here the lines of a paragraph are joined into one
     * element for picocli to wrap once; an empty line ends a paragraph, and an indented line (an example, a list)
     * stays as it is.
     */
    private static void paragraphs(CommandLine cli) {
        CommandLine.Model.UsageMessageSpec usage = cli.getCommandSpec().usageMessage();
        String[] description = joined(usage.description());
        if (cli.getParent() != null && usage.header().length == 0 && description.length > 0) {
            // the first sentence is the summary: the one line of a list of commands, and the help's first line
            String first = description[0];
            int end = first.indexOf(". ");
            usage.header(end < 0 ? first : first.substring(0, end + 1));
            description[0] = end < 0 ? "" : first.substring(end + 2);
            if (description[0].isEmpty()) {
                description = java.util.Arrays.copyOfRange(description, 1, description.length);
            }
        }
        usage.description(description);
        usage.footer(joined(usage.footer()));
        // picocli wraps every line, an example's too (a JSON snippet broken inside a string is no longer JSON)
        cli.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_DESCRIPTION,
                help -> laidOut(help.commandSpec().usageMessage().description(), help.commandSpec().usageMessage().width()));
        cli.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_FOOTER,
                help -> laidOut(help.commandSpec().usageMessage().footer(), help.commandSpec().usageMessage().width()));
        cli.getSubcommands().values().forEach(Main::paragraphs);
    }

    /** Paragraphs wrapped at spaces to the width, indented lines (examples) exactly as written. */
    static String laidOut(String[] elements, int width) {
        StringBuilder out = new StringBuilder();
        for (String element : elements) {
            if (element.isEmpty() || Character.isWhitespace(element.charAt(0))) {
                out.append(element).append(System.lineSeparator());
                continue;
            }
            int column = 0;
            for (String word : element.split(" +")) {
                if (column > 0 && column + 1 + word.length() > width) {
                    out.append(System.lineSeparator());
                    column = 0;
                } else if (column > 0) {
                    out.append(' ');
                    column++;
                }
                out.append(word);
                column += word.length();
            }
            out.append(System.lineSeparator());
        }
        return out.toString();
    }

    static String[] joined(String[] lines) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (String line : lines) {
            int last = out.size() - 1;
            boolean prose = !line.isBlank() && !Character.isWhitespace(line.charAt(0));
            if (prose && last >= 0 && !out.get(last).isBlank() && !Character.isWhitespace(out.get(last).charAt(0))) {
                out.set(last, out.get(last) + " " + line);
            } else {
                out.add(line);
            }
        }
        return out.toArray(String[]::new);
    }

    /** The command's words after the subcommand, without the subcommand's own options (for the hint). */
    private static java.util.List<String> commandAfter(CommandLine.Model.CommandSpec spec, String[] args, String subcommand) {
        java.util.List<String> all = java.util.List.of(args);
        int at = all.indexOf(subcommand);
        java.util.List<String> words = new java.util.ArrayList<>();
        for (int i = at + 1; i < all.size(); i++) {
            String w = all.get(i);
            CommandLine.Model.OptionSpec o = spec.findOption(w.contains("=") ? w.substring(0, w.indexOf('=')) : w);
            if (o == null || !w.startsWith("--") || !words.isEmpty()) {
                words.add(w);
            } else if (!w.contains("=") && o.arity().max() > 0) {
                i++;
            }
        }
        return words;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
