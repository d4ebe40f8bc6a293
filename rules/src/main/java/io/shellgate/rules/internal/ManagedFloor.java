package io.shellgate.rules.internal;

import io.shellgate.rules.FleetSettings;
import io.shellgate.rules.Layer;
import io.shellgate.rules.RuleInfo;
import io.shellgate.rules.Tier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the managed layer fixed, taken when it has been applied, and the checks that keep every
 * later layer from loosening it: the deny and ask rules then in effect cannot be disabled, the
 * budgets it set cannot be raised, and what it set for review, the shell and the export cannot be
 * changed. Without a managed layer it fixes nothing.
 */
final class ManagedFloor {

    private String file;
    private final Set<String> locked = new HashSet<>();
    private final Map<String, Integer> ceilings = new HashMap<>();
    private boolean shellPinned;
    private boolean personTimeoutPinned;
    private boolean auditRequired;
    private boolean tightenOnly;
    private boolean rememberedApprovals = true;
    private boolean llmReviewer = true;
    private final Set<String> pinnedLlm = new HashSet<>();
    private final Map<String, String> otlp = new LinkedHashMap<>();
    private final Set<String> pinnedOtlp = new HashSet<>();

    /** Whether a managed layer has been applied. */
    boolean active() {
        return file != null;
    }

    /** Takes what the managed layer fixed, once it and the default have been applied. */
    void seal(LayerSpec managed, Map<String, RuleInfo> entries) {
        file = managed.source().name();
        entries.values().stream().filter(e -> e.tier() != Tier.ALLOW).forEach(e -> locked.add(e.id()));
        ceiling("max-input-bytes", managed.maxInputBytes());
        ceiling("max-depth", managed.maxDepth());
        ceiling("time-budget-ms", managed.timeBudgetMillis());
        shellPinned = managed.shell() != null;
        personTimeoutPinned = managed.personTimeoutSeconds() != null;
        auditRequired = Boolean.TRUE.equals(managed.auditRequired());
        pinnedLlm.addAll(managed.llm().keySet());
        FleetSpec fleet = managed.fleet();
        tightenOnly = Boolean.TRUE.equals(fleet.tightenOnly());
        rememberedApprovals = !Boolean.FALSE.equals(fleet.rememberedApprovals());
        llmReviewer = !Boolean.FALSE.equals(fleet.llmReviewer());
        pinnedOtlp.addAll(fleet.otlp().keySet());
    }

    private void ceiling(String key, Integer value) {
        if (value != null) {
            ceilings.put(key, value);
        }
    }

    /** The start of a notice for what a later layer tried and the managed layer does not let it do. */
    String refusal(String layerFile) {
        return layerFile + ": ignored because the managed policy " + file + " may only be tightened (it would ";
    }

    /** Whether every layer after the managed one is treated like an untrusted project's. */
    boolean tightenOnly() {
        return tightenOnly;
    }

    /** Whether a later layer may not disable this entry. */
    boolean locks(RuleInfo entry) {
        return locked.contains(entry.id());
    }

    /** A later layer's value for a budget, or {@code current} when the managed layer caps it lower. */
    int atMost(String key, Integer given, int current, String layerFile, List<String> notices) {
        if (given == null) {
            return current;
        }
        Integer cap = ceilings.get(key);
        if (cap != null && given > cap) {
            notices.add(refusal(layerFile) + "raise " + key + " above " + cap + ")");
            return current;
        }
        return given;
    }

    boolean pinsShell() {
        return shellPinned;
    }

    boolean pinsPersonTimeout() {
        return personTimeoutPinned;
    }

    /** Whether the managed layer required the audit log ({@code [audit] required = true}), which no later layer undoes. */
    boolean requiresAudit() {
        return auditRequired;
    }

    boolean pinsLlm(String key) {
        return pinnedLlm.contains(key);
    }

    boolean rememberedApprovals() {
        return rememberedApprovals;
    }

    /**
     * Applies a layer's {@code [audit.otlp]}: a project's file never sets it (it would send every
     * command elsewhere), and a key the managed layer set stays.
     */
    void otlp(LayerSpec layer, List<String> notices) {
        Map<String, String> given = layer.fleet().otlp();
        if (given.isEmpty()) {
            return;
        }
        if (layer.source().layer() == Layer.PROJECT) {
            notices.add(layer.source().name() + ": [audit.otlp] ignored: a project's policy file cannot say where the"
                    + " decisions are exported; set it in your user policy or the managed policy");
            return;
        }
        given.forEach((key, value) -> {
            if (active() && pinnedOtlp.contains(key)) {
                notices.add(refusal(layer.source().name()) + "change audit.otlp." + key + ")");
            } else {
                otlp.put(key, value);
            }
        });
    }

    FleetSettings settings() {
        return new FleetSettings(file, rememberedApprovals, llmReviewer, pinnedLlm, otlp, pinnedOtlp);
    }
}
