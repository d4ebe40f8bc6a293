package io.shellgate.judge.internal.envelope;

import com.google.re2j.Pattern;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.Envelopes;
import io.shellgate.judge.JudgeRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * GitHub Copilot CLI 1.0's login-environment probe, which it runs with {@code bash -l -c} before
 * its first command, to read the environment a login shell would give its commands:
 *
 * <pre>
 * printf %s '__copilot_login_env_snapshot_HEX_HEX__'; if ! command env -0 2>/dev/null; then
 *   for __copilot_k in $(compgen -e); do printf '%s=%s\0' "$__copilot_k" "${!__copilot_k}"; done; fi
 * </pre>
 *
 * (one line). It only prints the environment to Copilot; what a login shell runs first are the
 * profile files. {@code /etc/profile} is taken as the system's own when root owns it and only root
 * can write it; the user's first profile file ({@code ~/.bash_profile}, {@code ~/.bash_login} or
 * {@code ~/.profile}, the one bash reads) must be absent or definitions only
 * ({@link SnapshotDefinitions}) with no alias, no PATH and no changed variable: the agent's edit
 * tool can write it, and the probe would run it. Anything else is not this probe.
 */
final class CopilotProbe implements Recognizer {

    static final String NAME = "copilot-cli 1.0 login environment probe";

    private static final Pattern FORM = Pattern.compile(Pattern.quote("printf %s '__copilot_login_env_snapshot_")
            + "[0-9a-f]{1,64}_[0-9a-f]{1,64}" + Pattern.quote("__'; if ! command env -0 2>/dev/null; then for __copilot_k in "
            + "$(compgen -e); do printf '%s=%s\\0' \"$__copilot_k\" \"${!__copilot_k}\"; done; fi"));

    /** The files a bash login shell reads from HOME: the first that exists. */
    private static final List<String> USER_PROFILES = List.of(".bash_profile", ".bash_login", ".profile");

    @Override
    public Optional<Envelopes.Unwrapped> recognize(JudgeRequest request) {
        if (request.dialect() != Dialect.BASH || !FORM.matcher(request.command()).matches()
                || !systemOwned(Path.of("/etc/profile")) || !userProfileDefinesOnly(request.env())) {
            return Optional.empty();
        }
        return Optional.of(new Envelopes.Unwrapped(NAME, null));
    }

    private static boolean userProfileDefinesOnly(Map<String, String> env) {
        Path home = AgentFiles.home(env);
        if (home == null) {
            return false;
        }
        for (String name : USER_PROFILES) {
            Path file = home.resolve(name);
            if (!AgentFiles.exists(file)) {
                continue;
            }
            if (!AgentFiles.absentOrOwn(file, false)) {
                return false;
            }
            SnapshotDefinitions.Read.Definitions d = SnapshotPath.sourced(file, false, env, Set.of());
            return d != null && d.path() == null && d.aliases().isEmpty();
        }
        return true;
    }

    /** Absent, or a file (not a link) that root owns and no one else may write. */
    private static boolean systemOwned(Path file) {
        try {
            PosixFileAttributes a = Files.readAttributes(file, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isRegularFile() && a.owner().getName().equals("root")
                    && !a.permissions().contains(PosixFilePermission.GROUP_WRITE)
                    && !a.permissions().contains(PosixFilePermission.OTHERS_WRITE);
        } catch (java.nio.file.NoSuchFileException e) {
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
