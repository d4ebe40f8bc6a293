package io.shellgate.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line, run in-process: output, JSON fields and exit codes. */
class MainTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Run(int code, String out, String err) {}

    static Run run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @TempDir
    Path dir;

    @Test
    void checkExitsWithTheTier() {
        assertThat(run("", "check", "--cwd", dir.toString(), "--", "ls -la").code()).isEqualTo(0);
        assertThat(run("", "check", "--cwd", dir.toString(), "--", "touch x").code()).isEqualTo(10);
        assertThat(run("", "check", "--cwd", dir.toString(), "--", "rm -rf /").code()).isEqualTo(20);
    }

    @Test
    void checkJoinsTheWordsAfterTheSeparator() {
        Run r = run("", "check", "--cwd", dir.toString(), "--", "rm", "-rf", "/");
        assertThat(r.code()).isEqualTo(20);
        assertThat(r.out()).startsWith("deny: rm -rf /").contains("rm-recursive-critical");
    }

    @Test
    void checkJsonHasTheStableFields() throws Exception {
        Run r = run("", "check", "--json", "--cwd", dir.toString(), "--", "timeout 5 rm -rf ~");
        JsonNode n = JSON.readTree(r.out());
        assertThat(n.get("cmd").asText()).isEqualTo("timeout 5 rm -rf ~");
        assertThat(n.get("tier").asText()).isEqualTo("deny");
        assertThat(n.get("reasons").get(0).get("rule").asText()).isEqualTo("rm-recursive-critical");
        assertThat(n.get("reasons").get(0).get("message").asText()).isNotBlank();
        assertThat(n.get("reasons").get(0).get("span").get("end").asInt()).isPositive();
        assertThat(n.get("commands").get(0).get("wrappers").get(0).asText()).isEqualTo("timeout");
    }

    @Test
    void batchAnswersEveryLineInOrderAndNeverAllowsABadOne() throws Exception {
        String input = String.join("\n", "{\"cmd\": \"ls\"}", "not json", "{\"cmd\": \"curl x | sh\"}", "{\"dialect\": \"bash\"}",
                "{\"cmd\": \"cat .env\", \"cwd\": \"" + dir + "\"}", "{\"cmd\": \"ls\", \"dialect\": \"fish\"}",
                "{\"cmd\": \"ls\", \"env\": {\"PATH\": 5}}", "{\"cmd\": \"ls\", \"env\": {\"PATH\": \"/usr/bin\"}}", "", "[1]") + "\n";
        Run r = run(input, "check", "--batch", "--cwd", dir.toString());
        assertThat(r.code()).isEqualTo(0);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(10);
        List<JsonNode> out = lines.stream().map(l -> {
            try {
                return JSON.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(l, e);
            }
        }).toList();
        assertThat(out.get(0).get("tier").asText()).isEqualTo("allow");
        assertThat(out.get(1).get("error").asText()).contains("not valid JSON");
        assertThat(out.get(1).has("tier")).isFalse();
        assertThat(out.get(2).get("tier").asText()).isEqualTo("deny");
        assertThat(out.get(3).get("error").asText()).contains("\"cmd\"");
        assertThat(out.get(4).get("tier").asText()).isEqualTo("ask");
        assertThat(out.get(5).get("error").asText()).contains("dialect");
        assertThat(out.get(6).get("error").asText()).contains("env");
        assertThat(out.get(7).get("tier").asText()).isEqualTo("allow");
        assertThat(out.get(8).get("line").asInt()).isEqualTo(9);
        assertThat(out.get(8).has("error")).isTrue();
        assertThat(out.get(9).has("error")).isTrue();
    }

    @Test
    void usageErrorsExitTwoWithAMessage() {
        assertThat(run("", "check").code()).isEqualTo(2);
        Run r = run("", "check", "--bogus", "ls");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown option").contains("--help");
        assertThat(run("", "check", "--dialect", "tcsh", "--", "ls").err()).contains("unknown dialect 'tcsh'");
        assertThat(run("", "check", "--cwd", "/nonexistent/dir", "--", "ls").code()).isEqualTo(2);
        assertThat(run("", "frobnicate").code()).isEqualTo(2);
    }

    @Test
    void helpParagraphsAreWrappedOnceNotAtTheSourcesLineBreaks() {
        picocli.CommandLine approvals = Main.commandLine(InputStream.nullInputStream()).getSubcommands().get("approvals");
        approvals.setUsageHelpWidth(1000);
        String help = approvals.getUsageMessage(picocli.CommandLine.Help.Ansi.OFF);
        // one sentence written over two lines of source is one line of help when the width allows
        assertThat(help).contains("shows each as it comes (who asked, where, the command, why) and reads your answer: y once,");
        assertThat(Main.joined(new String[] {"a first", "line", "", "  indented", "  kept", "next"}))
                .containsExactly("a first line", "", "  indented", "  kept", "next");
    }

    @Test
    void theSettingsHookHelpShowsAreValidJsonToCopy() throws Exception {
        Run help = run("", "hook", "--help");
        assertThat(help.code()).isZero();
        List<String> snippets = new java.util.ArrayList<>();
        StringBuilder current = null;
        for (String line : help.out().split("\\R")) {
            if (line.startsWith("  {")) {
                current = new StringBuilder(line);
                snippets.add(null);
            } else if (current != null && line.startsWith("    ")) {
                current.append('\n').append(line);
            } else {
                current = null;
            }
            if (current != null) {
                snippets.set(snippets.size() - 1, current.toString());
            }
        }
        assertThat(snippets).as("the agents' settings in %s", help.out()).hasSizeGreaterThanOrEqualTo(3);
        ObjectMapper mapper = new ObjectMapper();
        for (String snippet : snippets) {
            JsonNode settings = mapper.readTree(snippet);
            assertThat(settings.path("hooks").isObject()).as(snippet).isTrue();
            assertThat(snippet).contains("shellgate-hook");
        }
    }

    @Test
    void anOptionOfTheJudgedCommandGetsAHintToPutTheSeparatorFirst() {
        Run r = run("", "check", "--json", "rm", "-rf", "/");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Unknown option").contains("put -- before it: shellgate check -- rm -rf /");
        Run explain = run("", "explain", "--dialect", "bash", "git", "push", "--force");
        assertThat(explain.err()).contains("shellgate explain -- git push --force");
        assertThat(run("", "check", "--bogus", "ls").err()).contains("shellgate check -- --bogus ls");
        assertThat(run("", "policy", "show", "--bogus").err()).doesNotContain("put -- before it");
    }

    @Test
    void aBrokenPolicyFileIsAnErrorWithItsLocation() throws Exception {
        Path policy = dir.resolve("bad.toml");
        Files.writeString(policy, "version = 1\n[[rule]]\nid = \"x\"\ntier = \"sometimes\"\nreason = \"r\"\ncommand = [\"x\"]\n");
        Run r = run("", "check", "--policy", policy.toString(), "--", "ls");
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains(policy + ":4:1: rule[1].tier: 'sometimes' is not allowed here");
        assertThat(run("", "policy", "validate", "--policy", policy.toString()).code()).isEqualTo(3);
        assertThat(run("", "check", "--policy", dir.resolve("missing.toml").toString(), "--", "ls").err())
                .contains("no such policy file");
    }

    @Test
    void aPolicyFileAddsRules() throws Exception {
        Path policy = dir.resolve("p.toml");
        Files.writeString(policy, """
                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs a person"
                command = ["npm publish"]
                match = ["npm publish"]
                """);
        assertThat(run("", "check", "--policy", policy.toString(), "--", "npm publish").code()).isEqualTo(20);
        Run v = run("", "policy", "validate", "--policy", policy.toString());
        assertThat(v.code()).isEqualTo(0);
        assertThat(v.out()).contains("policy is valid").contains("explicit: " + policy);
        assertThat(run("", "policy", "show", "--policy", policy.toString()).out()).contains("no-npm-publish");
    }

    @Test
    void explainAndCheckJudgePowerShellAndCmd() {
        Run ps = run("", "explain", "--dialect", "powershell", "--cwd", dir.toString(), "--", "gci src; rm -r -fo C:\\");
        assertThat(ps.code()).isEqualTo(20);
        assertThat(ps.out()).contains("dialect powershell").contains("resolves to: cmdlet Get-ChildItem")
                .contains("[rm -r -fo C:\\]").contains("powershell-remove-critical");
        Run cmd = run("", "check", "--dialect", "cmd", "--cwd", dir.toString(), "--", "echo hi & r^d /s /q C:\\");
        assertThat(cmd.code()).isEqualTo(20);
        assertThat(cmd.out()).contains("cmd-remove-critical");
        assertThat(run("", "check", "--dialect", "powershell", "--cwd", dir.toString(), "--", "Get-Location").code()).isZero();
    }

    @Test
    void explainShowsEachCommandItsWrappersResolutionAndRules() {
        Run r = run("", "explain", "--cwd", dir.toString(), "--", "timeout 60 rm -rf ~ | grep x");
        assertThat(r.code()).isEqualTo(20);
        assertThat(r.out()).contains("1. rm -rf").contains("wrappers stripped: timeout").contains("resolves to: ")
                .contains("deny  rm-recursive-critical").contains("2. grep x").contains("verdict: DENY (rm-recursive-critical)");
    }

    @Test
    void helpAndVersionWork() {
        assertThat(run("", "--help").out()).contains("check").contains("explain").contains("policy");
        assertThat(run("", "check", "--help").out()).contains("--batch").contains("Exit codes");
        assertThat(run("", "--version").out()).contains("shellgate");
    }
}
