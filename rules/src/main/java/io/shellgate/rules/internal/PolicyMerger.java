package io.shellgate.rules.internal;

import io.shellgate.rules.Approval;
import io.shellgate.rules.AuditSettings;
import io.shellgate.rules.EnvironmentRules;
import io.shellgate.rules.Layer;
import io.shellgate.rules.PathSets;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.Programs;
import io.shellgate.rules.ReadOnlyCommand;
import io.shellgate.rules.Rule;
import io.shellgate.rules.ReviewSettings;
import io.shellgate.rules.RuleInfo;
import io.shellgate.rules.Settings;
import io.shellgate.rules.Tier;
import io.shellgate.rules.Wrapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies policy layers in order. Later layers add entries and disable entries by id; an untrusted
 * project layer may only make the policy stricter, and what it tries beyond that is reported as a
 * notice and ignored. So is what a layer after the managed one tries against its {@link ManagedFloor}.
 */
final class PolicyMerger {

    private int maxInputBytes = 65536;
    private int maxDepth = 8;
    private int timeBudgetMillis = 5000;
    private String shell;
    private final Set<String> trustedDirs = new LinkedHashSet<>();
    private final Set<String> untrustedDirs = new LinkedHashSet<>();
    private final Set<String> trustedProjects = new LinkedHashSet<>();
    private final Map<String, Set<String>> paths = new LinkedHashMap<>();
    private final Set<String> envSafe = new LinkedHashSet<>();
    private final Set<String> envDangerous = new LinkedHashSet<>();
    private final Set<String> envSecret = new LinkedHashSet<>();
    private final Map<String, String> shells = new LinkedHashMap<>();
    private final Map<String, Programs.Interpreter> interpreters = new LinkedHashMap<>();
    private final Set<String> downloaders = new LinkedHashSet<>();
    private final Set<String> dataCommands = new LinkedHashSet<>();
    private final Map<String, Programs.SubcommandProgram> subcommands = new LinkedHashMap<>();
    private final Map<String, Set<String>> builtins = new LinkedHashMap<>();
    private final Map<String, RuleInfo> entries = new LinkedHashMap<>();
    private final List<String> sources = new ArrayList<>();
    private final List<String> notices = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private int personTimeoutSeconds = ReviewSettings.DEFAULT_PERSON_TIMEOUT_SECONDS;
    /** The shortest remember-days any layer that may configure review set: a shorter memory is the safer one. */
    private Integer rememberDays;
    /** Whether asks may be left to an agent's own allow rules: any layer that may configure review can say no. */
    private boolean agentAllowRules = true;
    /**
     * Whether a hook may leave an ask to the agent's own dialog: opt-in, set by a layer that may configure review and is
     * not a project's (a trusted project's neither: the setting lets the agent's rules and read-only list take part),
     * and any such layer can say no.
     */
    private Boolean agentDialog;
    private final Map<String, String> llm = new LinkedHashMap<>();
    private final Map<String, Approval> approvals = new LinkedHashMap<>();
    private boolean auditRequired;
    private final ManagedFloor floor = new ManagedFloor();

    static Policy merge(List<LayerSpec> layers, String home) throws PolicyException {
        PolicyMerger merger = new PolicyMerger();
        for (LayerSpec layer : layers) {
            merger.apply(layer, home);
        }
        if (!merger.problems.isEmpty()) {
            throw new PolicyException(merger.problems);
        }
        return merger.build();
    }

    private void apply(LayerSpec layer, String home) {
        String name = layer.source().name();
        sources.add(layer.source().layer().name().toLowerCase(java.util.Locale.ROOT) + ": " + name);
        boolean mayWeaken = (layer.source().layer().mayWeaken() || projectTrusted(name, home)) && !floor.tightenOnly();
        String untrusted = name + ": ignored because the project is not trusted (list its directory in"
                + " settings.trusted-projects of your user policy to let it ";
        for (String id : layer.disable()) {
            RuleInfo entry = entries.get(id);
            if (entry == null) {
                notices.add(layer.disableLocation() + ": disable: no rule has the id '" + id + "'");
            } else if (floor.locks(entry)) {
                notices.add(floor.refusal(name) + "disable the " + entry.tier().id() + " rule '" + id + "')");
            } else if (entry.tier() != Tier.ALLOW && !mayWeaken) {
                notices.add(untrusted + "disable the " + entry.tier().id() + " rule '" + id + "')");
            } else {
                entries.remove(id);
            }
        }
        if (mayWeaken) {
            maxInputBytes = floor.atMost("max-input-bytes", layer.maxInputBytes(), maxInputBytes, name, notices);
            maxDepth = floor.atMost("max-depth", layer.maxDepth(), maxDepth, name, notices);
            timeBudgetMillis = floor.atMost("time-budget-ms", layer.timeBudgetMillis(), timeBudgetMillis, name, notices);
            if (layer.shell() != null && floor.pinsShell()) {
                notices.add(floor.refusal(name) + "change settings.shell)");
            } else if (layer.shell() != null) {
                shell = layer.shell();
            }
            trustedDirs.addAll(layer.trustedDirs());
            envSafe.addAll(layer.envSafe());
            dataCommands.addAll(layer.dataCommands());
            subcommands.putAll(layer.subcommands());
            layer.builtins().forEach((d, names) -> builtins.computeIfAbsent(d, k -> new LinkedHashSet<>()).addAll(names));
            layer.paths().getOrDefault("harmless-outputs", List.of())
                    .forEach(p -> paths.computeIfAbsent("harmless-outputs", k -> new LinkedHashSet<>()).add(p));
            if (layer.source().layer() != Layer.PROJECT) {
                trustedProjects.addAll(layer.trustedProjects());
            }
        } else if (layer.maxInputBytes() != null || layer.maxDepth() != null || layer.timeBudgetMillis() != null
                || layer.shell() != null
                || !layer.trustedDirs().isEmpty() || !layer.envSafe().isEmpty() || !layer.dataCommands().isEmpty()
                || !layer.subcommands().isEmpty() || !layer.builtins().isEmpty()
                || layer.paths().containsKey("harmless-outputs") || !layer.trustedProjects().isEmpty()) {
            notices.add(untrusted + "change settings, safe variables, data commands, subcommands, builtins or harmless outputs)");
        }
        untrustedDirs.addAll(layer.untrustedDirs());
        review(layer, mayWeaken, untrusted);
        layer.paths().forEach((set, patterns) -> {
            if (!set.equals("harmless-outputs")) {
                paths.computeIfAbsent(set, k -> new LinkedHashSet<>()).addAll(patterns);
            }
        });
        envDangerous.addAll(layer.envDangerous());
        // naming a secret only adds reasons to ask: any layer may
        envSecret.addAll(layer.envSecret());
        layer.shells().forEach((shell, dialect) -> {
            if (mayWeaken || !shells.containsKey(shell)) {
                shells.put(shell, dialect);
            }
        });
        layer.interpreters().forEach(i -> {
            if (floor.active() && interpreters.containsKey(i.id())) {
                notices.add(floor.refusal(name) + "redefine the interpreter '" + i.id() + "')");
            } else {
                interpreters.put(i.id(), i);
            }
        });
        downloaders.addAll(layer.downloaders());
        if (mayWeaken) {
            layer.readOnly().forEach(this::add);
            layer.wrappers().forEach(this::add);
        } else if (!layer.readOnly().isEmpty() || !layer.wrappers().isEmpty()) {
            notices.add(untrusted + "add read-only commands or wrappers)");
        }
        layer.rules().forEach(this::add);
        floor.otlp(layer, notices);
        if (layer.source().layer() == Layer.MANAGED) {
            floor.seal(layer, entries);
        }
    }

    private void review(LayerSpec layer, boolean mayWeaken, String untrusted) {
        if (layer.auditRequired() != null) {
            // requiring the log only refuses more: any file may ask for it, only a trusted one may drop it
            if (!layer.auditRequired() && floor.requiresAudit()) {
                notices.add(floor.refusal(layer.source().name()) + "stop requiring the audit log)");
            } else if (mayWeaken || layer.auditRequired()) {
                auditRequired = layer.auditRequired();
            } else {
                notices.add(untrusted + "stop requiring the audit log)");
            }
        }
        if (!mayWeaken) {
            if (layer.personTimeoutSeconds() != null || layer.rememberDays() != null || layer.agentAllowRules() != null
                    || layer.agentDialog() != null
                    || !layer.llm().isEmpty()
                    || !layer.approvals().isEmpty()) {
                notices.add(untrusted + "configure review or approve commands)");
            }
            return;
        }
        String name = layer.source().name();
        if (layer.personTimeoutSeconds() != null && floor.pinsPersonTimeout()) {
            notices.add(floor.refusal(name) + "change review.person-timeout-seconds)");
        } else if (layer.personTimeoutSeconds() != null) {
            personTimeoutSeconds = layer.personTimeoutSeconds();
        }
        if (layer.rememberDays() != null) {
            rememberDays = rememberDays == null ? layer.rememberDays() : Math.min(rememberDays, layer.rememberDays());
        }
        if (Boolean.FALSE.equals(layer.agentAllowRules())) {
            agentAllowRules = false;
        }
        if (layer.agentDialog() != null && layer.source().layer() == Layer.PROJECT) {
            notices.add(name + ": review.agent-dialog ignored: only your own policy, a --policy file or the managed"
                    + " policy may hand asks to the agent's own dialog");
        } else if (layer.agentDialog() != null && !Boolean.FALSE.equals(agentDialog)) {
            agentDialog = layer.agentDialog();
        }
        layer.llm().forEach((key, value) -> {
            if (floor.pinsLlm(key)) {
                notices.add(floor.refusal(name) + "change review.llm." + key + ")");
            } else {
                llm.put(key, value);
            }
        });
        if (!floor.rememberedApprovals() && !layer.approvals().isEmpty()) {
            notices.add(name + ": [[approved]] entries ignored: the managed policy switched remembered approvals off");
            return;
        }
        for (Approval a : layer.approvals()) {
            Approval existing = approvals.get(a.id());
            if (existing != null) {
                problems.add(a.location() + ": the approval id '" + a.id() + "' is already used at " + existing.location());
                continue;
            }
            if (a.layer() == Layer.PROJECT && a.project() == null) {
                // an approval in a project's file counts in that project only
                Path file = Path.of(layer.source().name()).toAbsolutePath().normalize();
                Path root = file.getParent() == null ? null : file.getParent().getParent();
                a = new Approval(a.id(), a.command(), a.prefix(), a.argsNone(), a.maxArgs(),
                        root == null ? "/" : root.toString(), a.expires(), a.note(), a.location(), a.layer());
            }
            approvals.put(a.id(), a);
        }
    }

    private boolean projectTrusted(String file, String home) {
        Path policy = Path.of(file).toAbsolutePath().normalize();
        Path root = policy.getParent() == null ? null : policy.getParent().getParent();
        if (root == null) {
            return false;
        }
        for (String trusted : trustedProjects) {
            String expanded = trusted.startsWith("~/") && home != null ? home + trusted.substring(1) : trusted;
            if (Path.of(expanded).toAbsolutePath().normalize().equals(root)) {
                return true;
            }
        }
        return false;
    }

    private void add(RuleInfo entry) {
        RuleInfo existing = entries.get(entry.id());
        if (existing != null) {
            problems.add(entry.location() + ": the id '" + entry.id() + "' is already used at " + existing.location()
                    + "; to replace that entry, add \"" + entry.id() + "\" to this file's disable list, or choose a new id");
            return;
        }
        entries.put(entry.id(), entry);
    }

    private Policy build() {
        List<ReadOnlyCommand> readOnly = new ArrayList<>();
        List<Wrapper> wrappers = new ArrayList<>();
        List<Rule> rules = new ArrayList<>();
        for (RuleInfo entry : entries.values()) {
            switch (entry) {
                case ReadOnlyCommand r -> readOnly.add(r);
                case Wrapper w -> wrappers.add(w);
                case Rule r -> rules.add(r);
                default -> throw new IllegalStateException("unknown entry " + entry);
            }
        }
        Map<String, List<String>> pathSets = new LinkedHashMap<>();
        paths.forEach((k, v) -> pathSets.put(k, List.copyOf(v)));
        Map<String, List<String>> builtinLists = new LinkedHashMap<>();
        builtins.forEach((k, v) -> builtinLists.put(k, List.copyOf(v)));
        return new Policy(
                new Settings(maxInputBytes, maxDepth, timeBudgetMillis, List.copyOf(trustedDirs), List.copyOf(untrustedDirs),
                        List.copyOf(trustedProjects), shell),
                readOnly, wrappers, rules,
                new EnvironmentRules(List.copyOf(envSafe), List.copyOf(envDangerous), List.copyOf(envSecret)),
                new PathSets(pathSets),
                new Programs(shells, List.copyOf(interpreters.values()), List.copyOf(downloaders), List.copyOf(dataCommands),
                        subcommands, builtinLists),
                sources, notices, new ReviewSettings(personTimeoutSeconds, rememberDays, agentAllowRules,
                        agentAllowRules && Boolean.TRUE.equals(agentDialog), llm, List.copyOf(approvals.values())),
                new AuditSettings(auditRequired), floor.settings());
    }
}
