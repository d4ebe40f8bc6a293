package io.shellgate.launcher.internal;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.ZoneOffset;
import picocli.AutoComplete;
import picocli.CommandLine;

/**
 * The man page and the bash (and zsh, through bashcompinit) completion script, both made at build time from the
 * command line's own picocli model, so they name exactly the subcommands and options the program has.
 */
public final class CommandDocs {

    private static final int WIDTH = 78;

    private CommandDocs() {}

    /**
     * Prints {@code man} (troff for section 1) or {@code completion} (a bash script).
     *
     * @return the exit code: 0, or 2 for an unknown kind
     */
    public static int print(String kind, CommandLine cli, PrintStream out) {
        PrintStream utf8 = new PrintStream(out, true, StandardCharsets.UTF_8);
        switch (kind) {
            case "man" -> utf8.print(manPage(cli));
            case "completion" -> utf8.print(AutoComplete.bash("shellgate", cli));
            default -> {
                System.err.println("shellgate __docs: man or completion, not " + kind);
                return 2;
            }
        }
        utf8.flush();
        return 0;
    }

    /** A man page: the top command's help, then each visible subcommand's help, in picocli's own layout. */
    static String manPage(CommandLine cli) {
        StringBuilder sb = new StringBuilder();
        String version = new Version().getVersion()[0].replace("shellgate ", "");
        sb.append(".TH SHELLGATE 1 \"").append(LocalDate.now(ZoneOffset.UTC)).append("\" \"shellgate ")
                .append(escape(version)).append("\" \"User Commands\"\n");
        sb.append(".SH NAME\nshellgate \\- a gate between AI agents and the shell\n");
        sb.append(".SH SYNOPSIS\n");
        block(sb, usage(cli));
        sb.append(".SH SUBCOMMANDS\n");
        cli.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().usageMessage().hidden() || name.equals("help")) {
                return;
            }
            sb.append(".SS ").append(escape("shellgate " + name)).append('\n');
            block(sb, usage(sub));
            sub.getSubcommands().forEach((subName, subSub) -> {
                if (!subSub.getCommandSpec().usageMessage().hidden() && !subName.equals("help")) {
                    sb.append(".SS ").append(escape("shellgate " + name + " " + subName)).append('\n');
                    block(sb, usage(subSub));
                }
            });
        });
        sb.append(".SH SEE ALSO\nThe README and docs/ of the distribution (/usr/share/doc/shellgate).\n");
        return sb.toString();
    }

    private static String usage(CommandLine cli) {
        cli.setUsageHelpWidth(WIDTH);
        return cli.getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    /** Text shown as it is laid out (no filling), every line safe for troff. */
    private static void block(StringBuilder sb, String text) {
        sb.append(".nf\n");
        for (String line : text.strip().split("\n", -1)) {
            sb.append(escape(line)).append('\n');
        }
        sb.append(".fi\n");
    }

    /** Backslashes escaped, and a leading dot or quote kept from being read as a request. */
    static String escape(String line) {
        String s = line.replace("\\", "\\e").replace("-", "\\-");
        return s.startsWith(".") || s.startsWith("'") ? "\\&" + s : s;
    }
}
