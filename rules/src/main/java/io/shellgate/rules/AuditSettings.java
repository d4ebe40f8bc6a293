package io.shellgate.rules;

/**
 * The {@code [audit]} table: what happens when a decision cannot be written to the audit log.
 *
 * @param required when true, a decision that cannot be logged is a refusal (every command is refused
 *     while the log cannot be written); when false (the default), it stands and a warning says it was
 *     not logged. The default, the user's file and {@code --policy} may set it; a project's file may
 *     only turn it on.
 */
public record AuditSettings(boolean required) {}
