package io.shellgate.interceptor;

import java.io.IOException;

/**
 * Thrown instead of starting a process that shellgate refused. It is an {@link IOException}, the
 * exception {@code ProcessBuilder.start} and {@code Runtime.exec} already declare, so callers that
 * handle a failed start handle a refusal too.
 */
public final class ShellgateRefusedException extends IOException {

    private static final long serialVersionUID = 1L;

    private final String rule;
    private final String reason;
    private final String tier;

    /**
     * @param rule the id of the rule that decided ({@code rm-recursive-critical}, {@code not-read-only},
     *     {@code policy-error}, {@code judge-error}...)
     * @param tier the judge's tier: {@code deny}, {@code ask}, or {@code error} when nothing could judge
     * @param reason the sentence saying why
     */
    public ShellgateRefusedException(String rule, String tier, String reason) {
        super("shellgate: refused (" + rule + "): " + reason);
        this.rule = rule;
        this.tier = tier;
        this.reason = reason;
    }

    /** The id of the rule that decided. */
    public String rule() {
        return rule;
    }

    /** The judge's tier ({@code deny} or {@code ask}), or {@code error} when no judge answered. */
    public String tier() {
        return tier;
    }

    /** Why the process was refused. */
    public String reason() {
        return reason;
    }
}
