package io.shellgate.rules.internal;

import java.util.Map;

/**
 * What one file says in {@code [managed]} (the managed file only) and {@code [audit.otlp]}; null
 * where it says nothing.
 *
 * @param tightenOnly {@code [managed] tighten-only}: every later layer is treated like an untrusted
 *     project's file
 */
record FleetSpec(Boolean rememberedApprovals, Boolean llmReviewer, Boolean tightenOnly, Map<String, String> otlp) {

    static final FleetSpec EMPTY = new FleetSpec(null, null, null, Map.of());

    FleetSpec {
        otlp = Map.copyOf(otlp);
    }
}
