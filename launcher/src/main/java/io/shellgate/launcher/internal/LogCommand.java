package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.reviewer.model.AuditReport;
import io.shellgate.reviewer.AuditTrail;
import io.shellgate.rules.JsonTrees;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code shellgate log}: reads the audit log. */
@Command(name = "log", mixinStandardHelpOptions = true,
        description = {"Shows the audit log: every decision, from every entry point, oldest first.",
            "The log is $XDG_STATE_HOME/shellgate/audit.jsonl (default ~/.local/state/shellgate/), rotated by size",
            "and age; --verify checks its hash chain."},
        footer = {"", "Exit code: 0; 2 for bad arguments; 5 when --verify finds the log edited or records missing."})
public final class LogCommand implements Callable<Integer> {

    private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhd])");

    @Option(names = "--since", paramLabel = "AGE|TIME",
            description = "Only decisions newer than this: an age (90s, 30m, 1h, 7d) or a UTC time (2026-11-29T10:00:00Z).")
    String since;

    @Option(names = "--tier", paramLabel = "TIER", description = "Only verdicts of this tier: allow, ask or deny.")
    String tier;

    @Option(names = "--refused", description = "Only commands that did not run.")
    boolean refused;

    @Option(names = "--json", description = "Print the records as they are stored, one JSON object per line.")
    boolean json;

    @Option(names = "--verify", description = {"Check that no record was edited, removed or inserted: each record carries",
        "the hash of the one before it (exit code 5 when one was)."})
    boolean verify;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (verify) {
            return verify(out, err);
        }
        Instant from = null;
        if (since != null) {
            from = parseSince(since);
            if (from == null) {
                err.println("shellgate: log --since " + since + ": give an age such as 30m, 1h or 7d, or a UTC time such as"
                        + " 2026-11-29T10:00:00Z");
                return ExitCode.USAGE.code();
            }
        }
        if (tier != null && !List.of("allow", "ask", "deny", "error").contains(tier)) {
            err.println("shellgate: log --tier " + tier + ": use allow, ask, deny or error");
            return ExitCode.USAGE.code();
        }
        for (String line : AuditTrail.lines(System.getenv())) {
            JsonNode r;
            try {
                r = JsonTrees.parse(line);
            } catch (IOException | RuntimeException e) {
                continue;
            }
            if (r == null || !r.isObject() || !keep(r, from)) {
                continue;
            }
            out.println(json ? line : human(r));
        }
        return ExitCode.ALLOW.code();
    }

    private static int verify(PrintWriter out, PrintWriter err) throws IOException {
        AuditReport report = AuditTrail.verify(System.getenv());
        if (report == null) {
            err.println("shellgate: log --verify: no state directory: set HOME, XDG_STATE_HOME or SHELLGATE_STATE_DIR");
            return ExitCode.ERROR.code();
        }
        for (String problem : report.problems()) {
            out.println("BROKEN: " + problem);
        }
        for (String torn : report.torn()) {
            out.println("TORN: " + torn);
        }
        String kept = report.records() + " records" + (report.firstSeq() > 1 ? " (seq " + report.firstSeq() + " to "
                + report.lastSeq() + (report.rotated() ? "; the older ones were rotated out" : "") + ")" : "");
        if (report.problems().isEmpty()) {
            out.println("intact: " + kept + ", each chained to the one before it");
            return ExitCode.ALLOW.code();
        }
        out.println(report.problems().size() + " break(s) in " + kept);
        return ExitCode.TAMPERED.code();
    }

    private boolean keep(JsonNode r, Instant from) {
        if (from != null) {
            try {
                if (Instant.parse(r.path("time").asText()).isBefore(from)) {
                    return false;
                }
            } catch (DateTimeParseException e) {
                return false;
            }
        }
        if (tier != null && !tier.equals(r.path("tier").asText())) {
            return false;
        }
        return !refused || !r.path("run").asBoolean(true);
    }

    private static String human(JsonNode r) {
        String time = r.path("time").asText();
        if (time.length() >= 19) {
            time = time.substring(0, 10) + " " + time.substring(11, 19);
        }
        return String.format(Locale.ROOT, "%s  %-5s %-7s %-6s %-13s %s  $ %s%n    %s", time, r.path("tier").asText(),
                r.path("run").isNull() ? "unknown" : r.path("run").asBoolean() ? "ran" : "refused", r.path("step").asText(), r.path("entry").asText(),
                r.path("cwd").asText(), r.path("cmd").asText().strip().replace("\n", "\n      "),
                r.path("message").asText()).stripTrailing();
    }

    static Instant parseSince(String text) {
        Matcher m = AGE.matcher(text);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
            return Instant.now().minus(d);
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
