package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Gemini CLI's envelope, whose command sits unquoted inside a subshell with an EXIT trap: what it
 * writes is recognised; a command that could leave the subshell, run on into the envelope, or
 * change the file the trap writes is not.
 */
class EnvelopeGeminiTest {

    @TempDir
    Path dir;

    private EnvelopeSite site;

    @BeforeEach
    void site() {
        site = new EnvelopeSite(dir);
    }

    static String envelope(String bgpidsWord, String command) {
        return "shopt -u promptvars nullglob extglob nocaseglob dotglob; _bgpids_file=" + bgpidsWord
                + "\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n" + command + "\n)\n__code=$?\nexit $__code";
    }

    private String envelope(String command) {
        return envelope(site.tmp + "/" + EnvelopeSite.GEMINI_DIR_NAME + "/bgpids.tmp", command);
    }

    private Optional<String> inner(String text) {
        return Envelopes.unwrap("gemini-cli", site.request(text)).map(u -> u.inner().command());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls -la", "echo ')'", "ls # )", "cat <<EOF\n)\n__code=1\nEOF", "cd src && make test",
            "for f in *.txt; do wc -l \"$f\"; done", "export FOO=\"$HOME/x\"; env | grep FOO", "read -r line < notes.txt",
            "printf '%s\\n' \"$HOME\"", "ls \\ ", "(cd /tmp; ls) | wc -l", "x=1\ny=2\necho $x$y", "local_var=1; unset local_var",
            "declare -i n=3", "trap -p", "jobs() { echo hi; }"})
    void theCommandInsideIsTakenExactly(String command) {
        assertThat(inner(envelope(command))).as(command).contains(command);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ls\n)\nrm -rf x\n(\necho", "ls )", "ls )\n(", "ls \\", "echo 'x", "echo \"x", "cat <<')'",
            "cat <<EOF", "cat <<'__code=$?'", "case x in x) ;; esac )", "((", "", " ", "ls\n)\n(\n:"})
    void aCommandThatCouldChangeTheEnvelopesShapeIsNotRecognised(String command) {
        assertThat(inner(envelope(command))).as(command).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"_bgpids_file=~/.bashrc", "_bgp''ids_file=x; ls", "echo $_bgpids_file",
            "declare \"${v}ids_file=/home/u/.bashrc\"", "read v; declare -n r=$v; r=/x", "declare -n r", "local -n r=x",
            "printf -v x y", "printf \"$o\" x y", "builtin printf -v x y", "eval \"$x\"", "eval ls", "source x", ". ./x",
            "alias jobs='rm -rf ~'", "enable -n jobs", "trap - EXIT", "trap 'rm -rf ~' EXIT", "$cmd arg", "\"$cmd\" arg",
            "export \"$n=1\"", "read \"$n\"", "mapfile \"$n\" < f", "let \"$n=1\"", "command declare \"$n=1\"",
            "for _bgpids_file in /x; do :; done", "coproc x { ls; }", "getopts ab \"$n\"", "wait -p \"$n\"",
            "exec {_bgpids_file}>/dev/null", "echo $'\\x5fbgpids_file'", "shopt -s expand_aliases; BASH_ALIASES[jobs]='rm -rf ~'",
            "BASH_''ALIASES+=([jobs]=ls)"})
    void aCommandThatCouldChangeWhatTheTrapWritesIsNotRecognised(String command) {
        assertThat(inner(envelope(command))).as(command).isEmpty();
    }

    @Test
    void aBgpidsFileWithSpacesInItsFolderIsQuotedAndRecognised() throws Exception {
        Path spaced = Files.createDirectories(site.root.resolve("my tmp"));
        site.env.put("TMPDIR", spaced.toString());
        assertThat(inner(envelope("'" + spaced + "/gemini-shell-x1Y2z3/bgpids.tmp'", "ls"))).contains("ls");
        assertThat(inner(envelope("/tmp/gemini-shell-x1Y2z3/bgpids.tmp", "ls"))).as("/tmp is always Node's fallback").contains("ls");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/home/u/.bashrc", "%t/gemini-shell-Ab12Cd/../x/bgpids.tmp", "%t/gemini-shell-Ab12Cd/other.tmp",
            "%t/gemini-shell-Ab1/bgpids.tmp", "%t/x/gemini-shell-Ab12Cd/bgpids.tmp", "/etc/gemini-shell-Ab12Cd/bgpids.tmp",
            "%t/gemini-shell-Ab12Cd/bgpids.tmp;ls", "\"%t/gemini-shell-Ab12Cd/bgpids.tmp\"", "$HOME/gemini-shell-Ab12Cd/bgpids.tmp"})
    void aBgpidsFileAnywhereElseIsNotRecognised(String word) {
        assertThat(inner(envelope(word.replace("%t", site.tmp.toString()), "ls"))).as(word).isEmpty();
    }

    @Test
    void aBgpidsFileOrFolderThatIsALinkIsNotRecognised() throws Exception {
        Path folder = site.tmp.resolve(EnvelopeSite.GEMINI_DIR_NAME);
        Files.createDirectories(folder);
        Files.createSymbolicLink(folder.resolve("bgpids.tmp"), site.home.resolve(".bashrc"));
        assertThat(inner(envelope("ls"))).isEmpty();
        Files.delete(folder.resolve("bgpids.tmp"));
        Files.delete(folder);
        Files.createSymbolicLink(folder, site.home);
        assertThat(inner(envelope("ls"))).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"rm -rf x; %s", "%s\nrm -rf x", "%s; rm -rf x", "%s && rm -rf x", " %s", "%s\n", "(%s)"})
    void anythingAroundTheEnvelopeIsNotRecognised(String around) {
        assertThat(inner(around.formatted(envelope("ls")))).isEmpty();
    }

    @Test
    void aChangedEnvelopePartIsNotRecognised() {
        String good = envelope("ls");
        assertThat(inner(good)).contains("ls");
        assertThat(inner(good.replace("shopt -u promptvars", "shopt -s promptvars"))).isEmpty();
        assertThat(inner(good.replace("jobs -p >", "rm -rf ~; jobs -p >"))).isEmpty();
        assertThat(inner(good.replace("exit $__code", "exit 0"))).isEmpty();
        assertThat(inner(good.replace("\n)\n", "\n)\nrm -rf x\n"))).isEmpty();
    }
}
