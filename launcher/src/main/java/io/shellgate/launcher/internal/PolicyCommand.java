package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.judge.Judges;
import io.shellgate.launcher.internal.cli.ExitCode;
import io.shellgate.launcher.internal.cli.PolicyOptions;
import io.shellgate.launcher.internal.server.VerdictJson;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Rule;
import io.shellgate.rules.RuleInfo;
import io.shellgate.rules.Wrapper;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code shellgate policy validate|show}. */
@Command(name = "policy", mixinStandardHelpOptions = true, description = "Checks or shows the policy in effect.",
        subcommands = {PolicyCommand.Validate.class, PolicyCommand.Show.class})
public final class PolicyCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Loads every layer and runs every example, the built-in default's included. */
    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = "Loads the policy layers that apply here and runs every rule's examples.",
            footer = {"", "Exit codes: 0 valid, 3 invalid (each problem is printed with file:line:column)."})
    public static final class Validate implements Callable<Integer> {
        @Mixin
        PolicyOptions options;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
                Policy policy = options.load(options.cwd());
                Judges.verifyAllExamples(policy);
                Judges.create(policy);
                out.println("policy is valid: " + policy.readOnly().size() + " read-only commands, " + policy.wrappers().size()
                        + " wrappers, " + policy.rules().size() + " rules; every example passes");
                policy.sources().forEach(s -> out.println("  from " + s));
                policy.notices().forEach(n -> out.println("  notice: " + n));
                return ExitCode.ALLOW.code();
            } catch (PolicyOptions.UsageException e) {
                err.println("shellgate policy validate: " + e.getMessage());
                return ExitCode.USAGE.code();
            } catch (PolicyException e) {
                return PolicyOptions.reportInvalid(err, "shellgate: the policy is invalid:", e);
            }
        }
    }

    /** Prints the merged policy. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "Prints the merged policy that applies here.")
    public static final class Show implements Callable<Integer> {
        @Mixin
        PolicyOptions options;

        @Option(names = "--json", description = "Print it as JSON.")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try {
                Policy policy = options.load(options.cwd());
                if (json) {
                    ObjectNode root = VerdictJson.MAPPER.createObjectNode();
                    ArrayNode sources = root.putArray("sources");
                    policy.sources().forEach(sources::add);
                    ArrayNode notices = root.putArray("notices");
                    policy.notices().forEach(notices::add);
                    ArrayNode entries = root.putArray("entries");
                    for (RuleInfo e : policy.entries()) {
                        ObjectNode o = entries.addObject();
                        o.put("id", e.id());
                        o.put("kind", kind(e));
                        o.put("tier", e.tier().id());
                        o.put("reason", e.reason());
                        o.put("location", e.location().toString());
                        o.put("layer", e.layer().name().toLowerCase(java.util.Locale.ROOT));
                    }
                    Fleet.json(policy.fleet(), root.putObject("managed"));
                    out.println(root.toPrettyString());
                    return ExitCode.ALLOW.code();
                }
                out.println("sources:");
                policy.sources().forEach(s -> out.println("  " + s));
                policy.notices().forEach(n -> out.println("notice: " + n));
                Fleet.lines(policy.fleet()).forEach(l -> out.println("managed: " + l));
                out.println("settings: max-input-bytes " + policy.settings().maxInputBytes() + ", max-depth "
                        + policy.settings().maxDepth() + ", time-budget-ms " + policy.settings().timeBudgetMillis());
                for (RuleInfo e : policy.entries()) {
                    out.println(String.format("%-6s %-10s %-32s %s  [%s %s]", e.tier().id(), kind(e), e.id(), e.reason(),
                            e.layer().name().toLowerCase(java.util.Locale.ROOT), e.location()));
                }
                return ExitCode.ALLOW.code();
            } catch (PolicyOptions.UsageException e) {
                err.println("shellgate policy show: " + e.getMessage());
                return ExitCode.USAGE.code();
            } catch (PolicyException e) {
                return PolicyOptions.reportInvalid(err, "shellgate: the policy is invalid:", e);
            }
        }

        private static String kind(RuleInfo e) {
            return switch (e) {
                case ReadOnlyCommand r -> "read-only";
                case Wrapper w -> "wrapper";
                case Rule r -> "rule";
                default -> "entry";
            };
        }
    }

}
