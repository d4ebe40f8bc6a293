package io.shellgate.launcher.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shellgate.rules.FleetSettings;
import io.shellgate.rules.Layer;
import io.shellgate.rules.ManagedPolicy;
import io.shellgate.rules.Policy;
import io.shellgate.rules.RuleInfo;
import io.shellgate.rules.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** What {@code policy show} and {@code doctor} say about the managed layer and where the entries come from. */
final class Fleet {

    private Fleet() {}

    /** The managed layer in a few lines: its file and what it switched off or pinned. */
    static List<String> lines(FleetSettings f) {
        List<String> out = new ArrayList<>();
        if (f.managedFile() == null) {
            out.add("none (" + ManagedPolicy.place().file() + " is not there)");
            return out;
        }
        out.add(f.managedFile() + ": later layers may tighten it, never loosen it");
        if (!f.rememberedApprovals()) {
            out.add("remembered approvals are off");
        }
        if (!f.llmReviewer()) {
            out.add("the LLM reviewer is off");
        }
        if (!f.pinnedLlm().isEmpty()) {
            out.add("pins review.llm: " + String.join(", ", f.pinnedLlm().stream().sorted().toList()));
        }
        if (!f.pinnedOtlp().isEmpty()) {
            out.add("pins audit.otlp: " + String.join(", ", f.pinnedOtlp().stream().sorted().toList()));
        }
        return out;
    }

    /** How many entries each layer brought, and every deny or ask rule outside the default with its place. */
    static List<String> provenance(Policy p) {
        Map<Layer, Integer> counts = new TreeMap<>();
        List<String> rules = new ArrayList<>();
        for (RuleInfo e : p.entries()) {
            counts.merge(e.layer(), 1, Integer::sum);
            if (e.layer() != Layer.DEFAULT && e.tier() != Tier.ALLOW) {
                rules.add(e.tier().id() + " " + e.id() + " from " + e.layer().name().toLowerCase(Locale.ROOT) + " " + e.location());
            }
        }
        List<String> out = new ArrayList<>();
        StringBuilder by = new StringBuilder("entries by layer:");
        counts.forEach((layer, n) -> by.append(' ').append(layer.name().toLowerCase(Locale.ROOT)).append(' ').append(n));
        out.add(by.toString());
        out.addAll(rules);
        return out;
    }

    static void json(FleetSettings f, ObjectNode o) {
        o.put("file", f.managedFile());
        o.put("remembered-approvals", f.rememberedApprovals());
        o.put("llm-reviewer", f.llmReviewer());
        var pinnedLlm = o.putArray("pinned-llm");
        f.pinnedLlm().stream().sorted().forEach(pinnedLlm::add);
        var pinnedOtlp = o.putArray("pinned-otlp");
        f.pinnedOtlp().stream().sorted().forEach(pinnedOtlp::add);
    }
}
