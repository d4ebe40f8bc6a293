package io.shellgate.launcher.internal.wrap;

import io.shellgate.rules.Places;
import io.shellgate.rules.PolicyLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * shellgate's own directories as the agent's namespace shows them: read-only, so that no process
 * of the agent (a file tool, the agent's own code, a shell that got through) can add an approval,
 * change a policy, the audit log or the run directory, while the judge server outside the
 * namespace writes them as before. The user policy's and the state directories are made first
 * when they are missing, for a directory made later inside the namespace would be writable there.
 */
final class GateMounts {

    private GateMounts() {}

    /**
     * The mounts, run directory first (the session's mount points in it come later and stay
     * visible). Nothing in them is writable for the agent, the session's directory included.
     *
     * @param session the session's directory, in the run directory
     * @param cwd where the agent starts (its project's {@code .shellgate} is one of the gate's)
     */
    static List<Bubblewrap.Bind> binds(Path session, Path cwd) throws IOException {
        Map<String, String> env = System.getenv();
        Set<Path> dirs = new LinkedHashSet<>();
        dirs.add(session.getParent());
        dirs.add(Places.run(env));
        Places.userPolicy(env).map(Path::getParent).ifPresent(dirs::add);
        Places.state(env).ifPresent(dirs::add);
        for (Path d : List.copyOf(dirs)) {
            if (!Files.exists(d, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(d);
                Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
            }
        }
        dirs.add(Places.cache(env));
        PolicyLoader.projectPolicyPath(cwd).map(Path::getParent).ifPresent(dirs::add);
        List<Bubblewrap.Bind> out = new ArrayList<>();
        for (Path d : dirs) {
            if (Files.isDirectory(d)) {
                Path real = d.toRealPath();
                out.add(Bubblewrap.Bind.readOnly(real, real));
            }
        }
        return out;
    }
}
