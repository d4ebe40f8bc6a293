package io.shellgate.launcher.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Reason;
import io.shellgate.judge.Verdict;
import io.shellgate.launcher.ExitCode;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Tier;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shellgate check}: the verdict for one command line, or for JSON Lines on standard input. */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Judges a command line: allow, ask or deny.",
            "The command line is one argument (quote it), or everything after --, joined by spaces."},
        footer = {"", "Exit codes: 0 allow, 10 ask, 20 deny, 2 usage error, 3 policy error, 4 other error.",
            "With --batch: 0 when every input line was answered (even with errors), else 2-4.",
            "", "Batch input fields: cmd (required), dialect, cwd, env (the complete environment).",
            "Batch output fields: cmd, tier, reasons[{rule, tier, message, span}], commands; or error."})
public final class CheckCommand implements Callable<Integer> {

    @Mixin
    PolicyOptions options;

    @Option(names = "--json", description = "Print the verdict as one JSON object.")
    boolean json;

    @Option(names = "--batch", description = "Read JSON Lines on standard input, write one JSON line per input line.")
    boolean batch;

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command line to judge.")
    List<String> command;

    @Spec
    CommandSpec spec;

    private final InputStream input;

    public CheckCommand(InputStream input) {
        this.input = input;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            Path cwd = options.cwd();
            Dialect dialect = options.dialect();
            if (batch) {
                if (command != null && !command.isEmpty()) {
                    throw new PolicyOptions.UsageException("--batch reads commands from standard input; give no COMMAND");
                }
                return batch(options.judge(cwd), cwd, dialect, input, out);
            }
            if (command == null || command.isEmpty()) {
                throw new PolicyOptions.UsageException("no command to check; usage: shellgate check [OPTIONS] -- COMMAND");
            }
            String line = String.join(" ", command);
            io.shellgate.rules.Policy policy = options.load(cwd);
            JudgeRequest request = new JudgeRequest(line, dialect, cwd, System.getenv());
            Verdict v = io.shellgate.judge.Judges.create(policy).judge(request);
            if (json) {
                ObjectNode node = VerdictJson.of(line, v);
                io.shellgate.reviewer.Approvals.covering(policy, System.getenv("HOME"), request, v)
                        .ifPresent(a -> node.put("approved_by", a.id()));
                out.println(node);
            } else {
                out.println(v.tier().id() + ": " + line);
                for (Reason r : v.bySeverity()) {
                    if (r.tier() != Tier.ALLOW || v.tier() == Tier.ALLOW) {
                        out.println("  " + r.tier().id() + " (" + r.rule() + "): " + r.message());
                    }
                }
                approval(policy, request, v).ifPresent(out::println);
            }
            return exit(v.tier()).code();
        } catch (PolicyOptions.UsageException e) {
            err.println("shellgate check: " + e.getMessage());
            return ExitCode.USAGE.code();
        } catch (PolicyException e) {
            return PolicyOptions.reportInvalid(err, "shellgate: the policy cannot be used:", e);
        } catch (IOException e) {
            err.println("shellgate check: cannot read standard input: " + e.getMessage());
            return ExitCode.ERROR.code();
        }
    }

    /**
     * The line saying that a remembered approval would let an asked line run, with the approval's id and file; the
     * exit code stays the judge's (10), since the approval is the review's answer, not the judge's.
     */
    static java.util.Optional<String> approval(io.shellgate.rules.Policy policy, JudgeRequest request, Verdict v) {
        return io.shellgate.reviewer.Approvals.covering(policy, System.getenv("HOME"), request, v)
                .map(a -> "  approved by " + a.id() + " (" + a.location().file() + "): would run without asking");
    }

    static ExitCode exit(Tier tier) {
        return switch (tier) {
            case ALLOW -> ExitCode.ALLOW;
            case ASK -> ExitCode.ASK;
            case DENY -> ExitCode.DENY;
        };
    }

    private static int batch(Judge judge, Path defaultCwd, Dialect defaultDialect, InputStream input, PrintWriter out)
            throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            out.println(answer(judge, line, number, defaultCwd, defaultDialect));
            out.flush();
        }
        return ExitCode.ALLOW.code();
    }

    /** One output line for one input line: a verdict, or an error (never an allow). */
    static String answer(Judge judge, String line, int number, Path defaultCwd, Dialect defaultDialect) {
        JsonNode node;
        try {
            node = VerdictJson.MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            return error(number, null, "not valid JSON: " + e.getOriginalMessage());
        }
        if (node == null || !node.isObject()) {
            return error(number, null, "each line must be a JSON object like {\"cmd\": \"ls -la\"}");
        }
        JsonNode cmd = node.get("cmd");
        if (cmd == null || !cmd.isTextual()) {
            return error(number, null, "the field \"cmd\" (a string) is required");
        }
        Dialect dialect = defaultDialect;
        if (node.has("dialect")) {
            dialect = node.get("dialect").isTextual() ? Dialect.parse(node.get("dialect").asText()) : null;
            if (dialect == null) {
                return error(number, cmd.asText(), "\"dialect\" must be one of bash, zsh, sh, powershell, cmd");
            }
        }
        Path cwd = defaultCwd;
        if (node.has("cwd")) {
            if (!node.get("cwd").isTextual() || !node.get("cwd").asText().startsWith("/")) {
                return error(number, cmd.asText(), "\"cwd\" must be an absolute path");
            }
            cwd = Path.of(node.get("cwd").asText()).normalize();
            if (!Files.isDirectory(cwd)) {
                return error(number, cmd.asText(), "\"cwd\" " + cwd + " is not a directory");
            }
        }
        Map<String, String> env = System.getenv();
        if (node.has("env")) {
            JsonNode e = node.get("env");
            if (!e.isObject()) {
                return error(number, cmd.asText(), "\"env\" must be an object of strings");
            }
            Map<String, String> given = new HashMap<>();
            for (Map.Entry<String, JsonNode> f : e.properties()) {
                if (!f.getValue().isTextual()) {
                    return error(number, cmd.asText(), "\"env\"." + f.getKey() + " must be a string");
                }
                given.put(f.getKey(), f.getValue().asText());
            }
            env = given;
        }
        Verdict v = judge.judge(new JudgeRequest(cmd.asText(), dialect, cwd, env));
        return VerdictJson.of(cmd.asText(), v).toString();
    }

    private static String error(int number, String cmd, String message) {
        ObjectNode out = VerdictJson.MAPPER.createObjectNode();
        out.put("line", number);
        if (cmd != null) {
            out.put("cmd", cmd);
        }
        out.put("error", message);
        return out.toString();
    }
}
