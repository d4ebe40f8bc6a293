package io.shellgate.rules;

/**
 * The policy layers, in the order they are applied. Later layers add rules or disable rules by id.
 *
 * <p>The project layer arrives with the code an agent works on, so it is not trusted to weaken
 * anything: see {@link PolicyLoader} for what it may and may not do. Nor may any layer after the
 * managed one weaken what the managed layer fixed.
 */
public enum Layer {
    /** The policy embedded in shellgate. */
    DEFAULT,
    /**
     * The administrator's file ({@link ManagedPolicy#PATH}): applied right after the default, and
     * what the two say together is the floor that the layers after it may tighten but never loosen.
     */
    MANAGED,
    /** {@code $XDG_CONFIG_HOME/shellgate/policy.toml}. */
    USER,
    /** {@code .shellgate/policy.toml} in the repository root or the working directory. */
    PROJECT,
    /** A file named with {@code --policy}. */
    EXPLICIT;

    /** Whether entries from this layer may make the policy more permissive. */
    public boolean mayWeaken() {
        return this != PROJECT;
    }
}
