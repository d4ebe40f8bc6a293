package io.shellgate.rules;

import java.util.List;

/**
 * The reader and merger of policy layers, as {@link PolicyLoader} reaches it: one, in this module's own jar
 * ({@code META-INF/services}), found once with {@link java.util.ServiceLoader}. This package holds the policy's
 * types, which the reader builds; the interface lets it do so without depending on the reader. Other modules call
 * {@link PolicyLoader}, not this.
 */
public interface PolicyReader {

    /**
     * Reads each layer, then merges them in the order given; every file's problems are reported together.
     *
     * @param home the user's home directory, for {@code ~/} in trusted project paths; may be null
     */
    Policy merge(List<PolicySource> sources, String home) throws PolicyException;
}
