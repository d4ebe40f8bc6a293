package io.shellgate.rules;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds, reads and merges policy layers.
 *
 * <p>Layers apply in this order: the built-in default, the administrator's managed file
 * ({@link ManagedPolicy#PATH}), the user file
 * ({@code $XDG_CONFIG_HOME/shellgate/policy.toml}, default {@code ~/.config/shellgate/policy.toml}),
 * the project file ({@code .shellgate/policy.toml} in the repository root, or in the working
 * directory outside a repository), then a file named with {@code --policy}. Each layer may add
 * entries and disable entries by id ({@code disable = ["rule-id"]}). Deny beats allow whatever
 * the layer: an added read-only command never overrides a deny rule.
 *
 * <p>A project file comes with the code an agent works on, so unless the user lists the project
 * in {@code settings.trusted-projects}, it may only make the policy stricter: it may add deny and
 * ask rules, sensitive paths and dangerous variables, and disable read-only commands. What it
 * tries beyond that is ignored and reported in {@link Policy#notices()}. No layer after the
 * managed one may disable a deny or ask rule in effect after it, nor change what it fixed (see
 * {@link FleetSettings}).
 *
 * <p>Loading checks the structure of every file. Running each rule's examples needs the judge;
 * see {@code io.shellgate.judge.Judges}.
 */
public final class PolicyLoader {

    /** The display name of the embedded default policy. */
    public static final String BUILT_IN = "<built-in default>";

    private static final String DEFAULT_RESOURCE = "default-policy.toml";

    private PolicyLoader() {}

    /** The embedded default policy's text. */
    public static PolicySource builtIn() {
        return BuiltIn.SOURCE;
    }

    /** The default policy's text, read from the jar once. */
    private static final class BuiltIn {
        static final PolicySource SOURCE = readBuiltIn();
    }

    private static PolicySource readBuiltIn() {
        try (InputStream in = PolicyLoader.class.getResourceAsStream(DEFAULT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the default policy is missing from the shellgate jar");
            }
            return new PolicySource(Layer.DEFAULT, BUILT_IN, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the default policy from the shellgate jar", e);
        }
    }

    /** The default policy alone. */
    public static Policy defaults() {
        try {
            return load(List.of(builtIn()), null);
        } catch (PolicyException e) {
            throw new IllegalStateException("the built-in default policy is invalid:\n" + e.getMessage(), e);
        }
    }

    /**
     * Reads and merges layers in the order given.
     *
     * @param home the user's home directory, for {@code ~/} in trusted project paths; may be null
     */
    public static Policy load(List<PolicySource> sources, String home) throws PolicyException {
        return Reader.INSTANCE.merge(sources, home);
    }

    /**
     * The sources that apply in {@code cwd}: the built-in default, the managed file
     * ({@link ManagedPolicy#place()}), the user and project files that exist, then {@code explicit} if given.
     *
     * @throws PolicyException when a file exists but cannot be read, {@code explicit} does not exist, or
     *     the managed file is there but not one only root can change
     */
    public static List<PolicySource> discover(Path cwd, Map<String, String> env, Path explicit) throws PolicyException {
        return discover(cwd, env, explicit, FileFacts.live());
    }

    /** The same, asking the file system through {@code files} (which may record what it was asked). */
    public static List<PolicySource> discover(Path cwd, Map<String, String> env, Path explicit, FileFacts files)
            throws PolicyException {
        return discover(cwd, env, explicit, files, ManagedPolicy.place());
    }

    /** The same, with the managed policy looked for at {@code managed} (tests point it into a temporary root). */
    public static List<PolicySource> discover(Path cwd, Map<String, String> env, Path explicit, FileFacts files,
            ManagedPolicy.Place managed) throws PolicyException {
        List<PolicySource> sources = new ArrayList<>();
        sources.add(builtIn());
        ManagedPolicy.read(managed, files).ifPresent(sources::add);
        Optional<Path> user = userPolicyPath(env);
        if (user.isPresent() && present(user.get(), "the user policy", files)) {
            sources.add(read(Layer.USER, user.get(), files));
        }
        Optional<Path> project = projectPolicyPath(cwd, files);
        if (project.isPresent() && !project.equals(user) && present(project.get(), "the project's policy", files)) {
            sources.add(read(Layer.PROJECT, project.get(), files));
        }
        if (explicit != null) {
            if (!files.existsNoFollow(explicit)) {
                throw new PolicyException(explicit + ": no such policy file (given with --policy)");
            }
            present(explicit, "the policy given with --policy", files);
            sources.add(read(Layer.EXPLICIT, explicit, files));
        }
        return sources;
    }

    /**
     * Whether a policy file is there to read: false when nothing is at its path; an error when
     * something is that cannot be read as one (a directory, a link that leads nowhere or in a
     * loop), since passing over it would drop that layer's rules without a word.
     */
    private static boolean present(Path file, String what, FileFacts files) throws PolicyException {
        if (files.isRegularFile(file)) {
            return true;
        }
        if (!files.existsNoFollow(file)) {
            return false;
        }
        throw new PolicyException(file + ": " + what + " is not a readable file ("
                + (files.isDirectory(file) ? "it is a directory" : "a link that leads nowhere, or in a loop")
                + "); make it the policy file, or remove it");
    }

    /** Where the user's policy file lives, whether or not it exists. */
    public static Optional<Path> userPolicyPath(Map<String, String> env) {
        return Places.userPolicy(env);
    }

    /**
     * Where the project's policy file lives: {@code .shellgate/policy.toml} in the root of the git
     * repository that contains {@code cwd}, or in {@code cwd} itself outside a repository.
     */
    public static Optional<Path> projectPolicyPath(Path cwd) {
        return projectPolicyPath(cwd, FileFacts.live());
    }

    private static Optional<Path> projectPolicyPath(Path cwd, FileFacts files) {
        if (cwd == null) {
            return Optional.empty();
        }
        Path dir = cwd.toAbsolutePath().normalize();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (files.exists(d.resolve(".git"))) {
                return Optional.of(d.resolve(".shellgate").resolve("policy.toml"));
            }
        }
        return Optional.of(dir.resolve(".shellgate").resolve("policy.toml"));
    }

    /** Reads one policy file. */
    public static PolicySource read(Layer layer, Path file) throws PolicyException {
        return read(layer, file, FileFacts.live());
    }

    private static PolicySource read(Layer layer, Path file, FileFacts files) throws PolicyException {
        try {
            return new PolicySource(layer, file.toString(), files.readString(file));
        } catch (IOException e) {
            throw new PolicyException(file + ": cannot read the policy file: " + e.getMessage());
        }
    }

    /** The reader of layers (see {@link PolicyReader}), found when the first policy is loaded. */
    private static final class Reader {
        static final PolicyReader INSTANCE = java.util.ServiceLoader.load(PolicyReader.class, PolicyReader.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("the policy reader is missing from the class path"
                        + " (META-INF/services/" + PolicyReader.class.getName() + ")"));
    }
}
