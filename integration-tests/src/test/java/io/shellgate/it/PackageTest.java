package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution installed as a user would on a machine with no JDK: the archive through its {@code install.sh},
 * and the Debian package through dpkg. Every JDK is hidden ({@code /usr/lib/jvm} is an empty folder, no
 * {@code java} on {@code PATH}, no {@code JAVA_HOME}), so the runtime the distribution carries is the only one.
 */
class PackageTest {

    @TempDir
    Path dir;

    private static Path archive() {
        String archive = System.getProperty("shellgate.dist");
        assertThat(archive).as("run through Maven: the system property shellgate.dist names the archive").isNotNull();
        return Path.of(archive);
    }

    /** A tool the test needs: missing, it fails on CI (whose .ci/run installs it) and is skipped elsewhere. */
    private static void need(String tool, String why) throws Exception {
        Processes.Result r = Processes.run(List.of("bash", "-c", "command -v " + tool), null, (String) null, null);
        if (r.code() != 0) {
            if (System.getenv("CI") != null) {
                fail(tool + " is missing, and CI must run this test (" + why + ")");
            }
            Assumptions.abort(tool + " is not on this machine (" + why + ")");
        }
    }

    private static Map<String, String> noJdk(Path home) {
        // no judge server: one started in the background would outlive the sandbox
        return Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin", "LANG", "C.UTF-8", "SHELLGATE_DESKTOP_NOTICES", "off",
                "SHELLGATE_NO_SERVER", "1");
    }

    @Test
    void theArchiveInstallsWithItsInstallScriptAndRunsWithNoJdk() throws Exception {
        need("bwrap", "it hides the machine's JDKs");
        Path home = Files.createDirectories(dir.resolve("home"));
        Path unpacked = Files.createDirectories(dir.resolve("unpacked"));
        Processes.Result tar = Processes.run(List.of("tar", "-xzf", archive().toString(), "-C", unpacked.toString()), null,
                (String) null, null);
        assertThat(tar.code()).as(tar.toString()).isZero();
        Path folder;
        try (Stream<Path> top = Files.list(unpacked)) {
            folder = top.findFirst().orElseThrow();
        }
        String script = String.join("\n",
                "set -u",
                "command -v java && { echo 'a java is still on PATH'; exit 9; }",
                "[ -z \"$(ls -A /usr/lib/jvm)\" ] || { echo 'the JDKs are not hidden'; exit 9; }",
                "'" + folder + "/install.sh' > install.out || exit 7",
                "cat install.out",
                "sg=$HOME/.local/bin/shellgate",
                "\"$sg\" check -- ls -la; echo \"check=$?\"",
                "\"$sg\" check -- rm -rf /; echo \"deny=$?\"",
                "\"$sg\" -c 'echo ran-through-the-gate'",
                "\"$sg\" --version",
                "readlink \"$HOME/.local/lib/shellgate\" > first",
                // an upgrade: the same version-free path, a new folder behind it, the old one gone
                "'" + folder + "/install.sh' > /dev/null || exit 8",
                "readlink \"$HOME/.local/lib/shellgate\" > second",
                "cmp -s first second && echo 'the link was not switched'",
                "[ -e \"$HOME/.local/lib/$(cat first)\" ] && echo 'the old folder is left'",
                "\"$sg\" check -- ls >/dev/null; echo \"after-upgrade=$?\"",
                "[ -f \"$HOME/.local/share/man/man1/shellgate.1\" ] && echo man-page",
                // the build made the AOT cache: no first use makes one in the background
                "[ -e \"$HOME/.cache/shellgate/aot\" ] && echo 'a first-use AOT cache was started'",
                "[ -f \"$HOME/.local/lib/shellgate/shellgate.aot\" ] && echo aot-cache",
                "[ -f \"$HOME/.local/share/bash-completion/completions/shellgate\" ] && echo completion",
                "\"$HOME/.local/lib/shellgate/install.sh\" --uninstall",
                "ls -A \"$HOME/.local/lib\" \"$HOME/.local/bin\"");
        List<String> command = new ArrayList<>(List.of("bwrap", "--dev-bind", "/", "/", "--tmpfs", "/usr/lib/jvm",
                "--chdir", home.toString(), "--", "bash", "-c", script));
        Processes.Result r = Processes.run(command, noJdk(home), (String) null, home);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString())
                .contains("shellgate installed in " + home + "/.local/lib/shellgate")
                .contains("allow: ls -la").contains("check=0\n")
                .contains("deny: rm -rf /").contains("deny=20\n")
                .contains("ran-through-the-gate\n")
                .contains("(" + home + "/.local/lib/.shellgate-")
                .contains("after-upgrade=0\n").contains("man-page\n").contains("aot-cache\n").contains("completion\n")
                .contains("shellgate removed from " + home + "/.local")
                .doesNotContain("the link was not switched").doesNotContain("the old folder is left")
                .doesNotContain("a first-use AOT cache was started");
        assertThat(r.out()).endsWith("shellgate removed from " + home + "/.local\n" + home + "/.local/bin:\n\n" + home
                + "/.local/lib:\n");
    }

    @Test
    void theDebianPackageInstallsRunsWithNoJdkAndRemovesCleanly() throws Exception {
        need("dpkg-deb", "the build makes the package with it");
        need("unshare", "the package is installed in a private copy of the system");
        Path deb;
        try (Stream<Path> files = Files.list(archive().getParent())) {
            deb = files.filter(f -> f.getFileName().toString().matches("shellgate_.*\\.deb")).findFirst().orElse(null);
        }
        assertThat(deb).as("the build's Debian package beside the archive").isNotNull();
        Processes.Result id = Processes.run(List.of("id", "-u"), null, (String) null, null);
        if (!id.out().strip().equals("0")) {
            if (System.getenv("CI") != null) {
                fail("CI runs as root, and this test must run there: dpkg installs into a private overlay of /");
            }
            Assumptions.abort("installing a package into a private overlay of / needs root");
        }
        Path upper = Files.createDirectories(dir.resolve("upper"));
        Path work = Files.createDirectories(dir.resolve("work"));
        Files.createDirectories(dir.resolve("root"));
        Files.copy(deb, dir.resolve("shellgate.deb"));
        // inside: a new mount namespace, / as an overlay whose changes go to a temporary folder, the JDKs hidden
        String inside = String.join("\n",
                "set -u",
                "command -v java && { echo 'a java is still on PATH'; exit 9; }",
                "dpkg -i /pkg/shellgate.deb > /dev/null || exit 7",
                "echo installed",
                "readlink /usr/bin/shellgate",
                "cd /tmp",
                "shellgate check -- ls -la; echo \"check=$?\"",
                "printf '%s' '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf ~\"}}'"
                        + " | shellgate-hook claude-code",
                "echo",
                "[ -f /usr/share/man/man1/shellgate.1.gz ] && echo man-page",
                "dpkg -r shellgate > /dev/null || exit 8",
                "[ -e /usr/lib/shellgate ] || [ -e /usr/bin/shellgate ] || [ -e /usr/bin/shellgate-hook ] && echo 'files left behind'",
                "echo removed");
        String outside = String.join("\n",
                "set -eu",
                "d='" + dir + "'",
                "mount -t overlay overlay -o \"lowerdir=/,upperdir=$d/upper,workdir=$d/work\" \"$d/root\"",
                "mount -t proc proc \"$d/root/proc\"",
                "mount --rbind /dev \"$d/root/dev\"",
                "mount -t tmpfs tmpfs \"$d/root/usr/lib/jvm\"",
                "mount -t tmpfs tmpfs \"$d/root/tmp\"",
                "mkdir -p \"$d/root/pkg\" && mount --bind \"$d\" \"$d/root/pkg\"",
                "exec chroot \"$d/root\" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8"
                        + " SHELLGATE_DESKTOP_NOTICES=off SHELLGATE_NO_SERVER=1 bash -c \"$1\"");
        Processes.Result r = Processes.run(List.of("unshare", "--mount", "--propagation", "private", "bash", "-c", outside,
                "sandbox", inside), Map.of("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"), (String) null, dir);
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out()).as(r.toString())
                .contains("installed\n../lib/shellgate/" + (Files.isExecutable(Processes.launcher().resolveSibling("shellgate-hook"))
                        ? "shellgate-hook" : "shellgate") + "\n")
                .contains("allow: ls -la").contains("check=0\n")
                .contains("\"permissionDecision\":\"deny\"").contains("rm-recursive-critical")
                .contains("man-page\n").endsWith("removed\n")
                .doesNotContain("files left behind");
        assertThat(Path.of("/usr/lib/shellgate")).as("nothing reached the real system").doesNotExist();
        assertThat(upper.resolve("var/lib/dpkg")).as("dpkg's changes went to the overlay").isDirectory();
    }
}
