package io.shellgate.rules;

import java.util.Map;
import java.util.Set;

/**
 * What an administrator's managed layer fixed for review, and where decisions are exported.
 *
 * @param managedFile the managed policy file in effect, or null when there is none
 * @param rememberedApprovals false when the managed layer switched remembered approvals off: no
 *     {@code [[approved]]} entry of a later layer and no "always for this session" answer counts
 * @param llmReviewer false when the managed layer switched the LLM reviewer off, whatever later
 *     layers or {@code SHELLGATE_LLM_*} say
 * @param pinnedLlm the {@code [review.llm]} keys the managed layer set: neither later layers nor
 *     {@code SHELLGATE_LLM_*} variables change them (a pinned endpoint, {@code may-approve = false})
 * @param otlp the {@code [audit.otlp]} table as strings (see {@link #OTLP_KEYS}); empty when no
 *     layer sets it
 * @param pinnedOtlp the {@code [audit.otlp]} keys the managed layer set: neither later layers nor
 *     {@code OTEL_*} variables change them
 */
public record FleetSettings(
        String managedFile,
        boolean rememberedApprovals,
        boolean llmReviewer,
        Set<String> pinnedLlm,
        Map<String, String> otlp,
        Set<String> pinnedOtlp) {

    /** The keys of {@code [audit.otlp]}. */
    public static final Set<String> OTLP_KEYS = Set.of("endpoint", "protocol", "headers", "service-name",
            "resource-attributes", "timeout-seconds", "queue-max-mb", "metrics");

    /** No managed layer, nothing exported. */
    public static final FleetSettings NONE = new FleetSettings(null, true, true, Set.of(), Map.of(), Set.of());

    public FleetSettings {
        pinnedLlm = Set.copyOf(pinnedLlm);
        otlp = Map.copyOf(otlp);
        pinnedOtlp = Set.copyOf(pinnedOtlp);
    }
}
