package io.shellgate.rules.internal;

import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyReader;
import io.shellgate.rules.PolicySource;
import java.util.ArrayList;
import java.util.List;

/** Reads each layer, then merges them; every file's problems are reported together. */
public final class PolicyLayers implements PolicyReader {

    /** Made by {@link java.util.ServiceLoader} for {@link io.shellgate.rules.PolicyLoader}. */
    public PolicyLayers() {}

    @Override
    public Policy merge(List<PolicySource> sources, String home) throws PolicyException {
        List<LayerSpec> layers = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (PolicySource source : sources) {
            try {
                layers.add(LayerReader.read(source));
            } catch (PolicyException e) {
                problems.addAll(e.problems());
            }
        }
        if (!problems.isEmpty()) {
            throw new PolicyException(problems);
        }
        return PolicyMerger.merge(layers, home);
    }
}
