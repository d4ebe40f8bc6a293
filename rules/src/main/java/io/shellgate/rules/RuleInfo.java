package io.shellgate.rules;

/**
 * What every policy entry has: a stable kebab-case id, a tier, a human reason, its examples, and
 * where it was written.
 */
public interface RuleInfo {

    String id();

    Tier tier();

    String reason();

    Examples examples();

    SourceLocation location();

    Layer layer();
}
