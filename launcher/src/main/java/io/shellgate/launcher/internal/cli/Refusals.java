package io.shellgate.launcher.internal.cli;

import io.shellgate.reviewer.Result;

/** What a door prints for a decision on standard error: the same lines from every entry point. */
public final class Refusals {

    private Refusals() {}

    /**
     * The lines for {@code result}: its audit warning, if any, then for a refusal
     * {@code shellgate: refused (rule): reason}; empty for a command that runs and was logged.
     */
    public static String lines(Result result) {
        StringBuilder out = new StringBuilder();
        if (result.warning() != null) {
            out.append(result.warning()).append('\n');
        }
        switch (result) {
            case Result.Refused r -> out.append(r.line()).append('\n');
            case Result.PolicyBroken p -> out.append(p.line()).append('\n');
            case Result.Runs r -> {
                // it runs: nothing to say
            }
        }
        return out.toString();
    }
}
