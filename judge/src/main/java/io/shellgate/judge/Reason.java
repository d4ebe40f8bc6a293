package io.shellgate.judge;

import io.shellgate.rules.Tier;

/**
 * Why part of a command line got its tier.
 *
 * @param rule the id of the policy rule or built-in check that decided
 * @param tier the tier this reason asks for
 * @param message a sentence for a person (and the agent) to read
 * @param span the part of the command line it is about
 */
public record Reason(String rule, Tier tier, String message, Span span) {}
