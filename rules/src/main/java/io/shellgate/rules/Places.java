package io.shellgate.rules;

import io.shellgate.client.RunDirectory;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where shellgate's files are, decided here alone for every Java part (the launcher, the judge
 * server, the javaagent, the judge's native libraries); the launcher script decides the same in
 * {@code sg_rundir} and {@code sg_cachedir}. Each comes from the environment of the process that
 * started the gate, never from a command's, and only an absolute path counts: a relative one would
 * move with the working directory, so that a {@code cd} would change the gate's files.
 */
public final class Places {

    private Places() {}

    /** {@code $XDG_CONFIG_HOME/shellgate/policy.toml}, else {@code $HOME/.config/shellgate/policy.toml}; empty when neither is set. */
    public static Optional<Path> userPolicy(Map<String, String> env) {
        Optional<Path> config = absolute(env, "XDG_CONFIG_HOME");
        if (config.isPresent()) {
            return Optional.of(config.get().resolve("shellgate").resolve("policy.toml"));
        }
        return absolute(env, "HOME").map(h -> h.resolve(".config").resolve("shellgate").resolve("policy.toml"));
    }

    /**
     * The state directory (audit log, approvals desk): {@code $SHELLGATE_STATE_DIR}, else
     * {@code $XDG_STATE_HOME/shellgate}, else {@code $HOME/.local/state/shellgate}; empty when none
     * is set, for the gate then refuses rather than log nowhere or somewhere no one looks.
     */
    public static Optional<Path> state(Map<String, String> env) {
        Optional<Path> own = absolute(env, "SHELLGATE_STATE_DIR");
        if (own.isPresent()) {
            return own;
        }
        Optional<Path> xdg = absolute(env, "XDG_STATE_HOME");
        if (xdg.isPresent()) {
            return Optional.of(xdg.get().resolve("shellgate"));
        }
        return absolute(env, "HOME").map(h -> h.resolve(".local").resolve("state").resolve("shellgate"));
    }

    /**
     * The judge server's run directory: {@code $SHELLGATE_RUN_DIR}, else {@code $XDG_RUNTIME_DIR/shellgate}
     * when that directory exists, else {@code $XDG_STATE_HOME/shellgate/run}, else
     * {@code ~/.local/state/shellgate/run} ({@code ~} from the password database when {@code HOME} is not set).
     */
    public static Path run(Map<String, String> env) {
        // the protocol's clients decide it, the javaagent's among them: one rule for every Java part
        return RunDirectory.locate(env);
    }

    /**
     * Every directory {@link #run} could name in {@code env}, whether or not it exists: the one it
     * names and the ones it would fall back to. What may hold the server's secrets (token, proof,
     * a session's pass) when the run directory is looked for from an environment other than the
     * server's own.
     */
    public static java.util.List<Path> runCandidates(Map<String, String> env) {
        java.util.List<Path> out = new java.util.ArrayList<>();
        absolute(env, "SHELLGATE_RUN_DIR").ifPresent(out::add);
        absolute(env, "XDG_RUNTIME_DIR").ifPresent(r -> out.add(r.resolve("shellgate")));
        absolute(env, "XDG_STATE_HOME").ifPresent(s -> out.add(s.resolve("shellgate").resolve("run")));
        out.add(home(env).resolve(".local").resolve("state").resolve("shellgate").resolve("run"));
        return java.util.List.copyOf(out);
    }

    /**
     * The directories of shellgate's own files in {@code env}, which no agent may write: the user
     * policy's directory, the state (audit log, approvals desk), every run directory
     * {@link #runCandidates} names, the cache and the managed policy's directory. A project's
     * {@code .shellgate} directory is one as well, wherever it is ({@link #PROJECT_DIRECTORY}).
     */
    public static java.util.List<Path> gateDirectories(Map<String, String> env) {
        java.util.List<Path> out = new java.util.ArrayList<>();
        userPolicy(env).map(Path::getParent).ifPresent(out::add);
        out.add(home(env).resolve(".config").resolve("shellgate"));
        state(env).ifPresent(out::add);
        out.add(home(env).resolve(".local").resolve("state").resolve("shellgate"));
        out.addAll(runCandidates(env));
        out.add(cache(env));
        out.add(ManagedPolicy.PATH.getParent());
        return out.stream().map(Path::normalize).distinct().toList();
    }

    /** The name of a project's own policy directory ({@code .shellgate/policy.toml}). */
    public static final String PROJECT_DIRECTORY = ".shellgate";

    /**
     * The cache (native libraries, the AOT cache): {@code $SHELLGATE_CACHE_DIR}, else
     * {@code $XDG_CACHE_HOME/shellgate}, else {@code ~/.cache/shellgate}.
     */
    public static Path cache(Map<String, String> env) {
        Optional<Path> own = absolute(env, "SHELLGATE_CACHE_DIR");
        if (own.isPresent()) {
            return own.get();
        }
        Optional<Path> xdg = absolute(env, "XDG_CACHE_HOME");
        if (xdg.isPresent()) {
            return xdg.get().resolve("shellgate");
        }
        return home(env).resolve(".cache").resolve("shellgate");
    }

    /** {@code $HOME}, else the user's home from the password database (as the shell's {@code ~} is then). */
    private static Path home(Map<String, String> env) {
        return absolute(env, "HOME").orElseGet(() -> Path.of(System.getProperty("user.home")));
    }

    private static Optional<Path> absolute(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path p = Path.of(value);
            return p.isAbsolute() ? Optional.of(p) : Optional.empty();
        } catch (java.nio.file.InvalidPathException e) {
            return Optional.empty();
        }
    }
}
