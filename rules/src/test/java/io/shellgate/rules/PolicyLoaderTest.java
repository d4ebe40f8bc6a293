package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyLoaderTest {

    private static PolicySource user(String text) {
        return new PolicySource(Layer.USER, "/home/u/.config/shellgate/policy.toml", text);
    }

    private static Policy load(PolicySource... extra) throws PolicyException {
        List<PolicySource> all = new java.util.ArrayList<>();
        all.add(PolicyLoader.builtIn());
        all.addAll(List.of(extra));
        return PolicyLoader.load(all, "/home/u");
    }

    @Test
    void loadsTheBuiltInDefault() {
        Policy policy = PolicyLoader.defaults();
        assertThat(policy.readOnly()).extracting(ReadOnlyCommand::id).contains("ls", "grep", "git-read-only");
        assertThat(policy.rules()).extracting(Rule::id).contains("rm-recursive-critical", "download-to-shell");
        assertThat(policy.wrappers()).extracting(Wrapper::id).contains("wrapper-timeout", "wrapper-sudo");
        assertThat(policy.paths().get("sensitive")).contains("**/.ssh/**", "~/.ssh", "**/.env", "/run/secrets/**");
        assertThat(policy.settings().maxInputBytes()).isEqualTo(65536);
        assertThat(policy.notices()).isEmpty();
    }

    @Test
    void everyDefaultEntryHasAKebabCaseIdAReasonAndExamples() {
        for (RuleInfo entry : PolicyLoader.defaults().entries()) {
            assertThat(entry.id()).as(entry.location().toString()).matches("[a-z0-9]+(-[a-z0-9]+)*");
            assertThat(entry.reason()).as(entry.id()).isNotBlank();
            assertThat(entry.examples().match()).as(entry.id() + " has match examples").isNotEmpty();
        }
    }

    @Test
    void reportsTomlSyntaxErrorsWithLineAndColumn() {
        assertThatThrownBy(() -> load(user("version = 1\n[settings\nmax-depth = 3\n")))
                .isInstanceOf(PolicyException.class)
                .hasMessageStartingWith("/home/u/.config/shellgate/policy.toml:2:")
                .hasMessageContaining("not valid TOML");
    }

    @Test
    void reportsUnknownKeysAtTheirLine() {
        String text = """
                version = 1

                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs a person"
                comand = ["npm publish"]
                """;
        assertThatThrownBy(() -> load(user(text)))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("policy.toml:7:1: rule[1].comand: unknown key");
    }

    @Test
    void reportsEveryProblemOfAFileTogether() {
        String text = """
                [[rule]]
                id = "Bad_Id"
                tier = "allow"
                reason = ""
                raw = "(?<=x)"
                """;
        try {
            load(user(text));
        } catch (PolicyException e) {
            assertThat(e.problems()).hasSize(4);
            assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(":2:1: rule[1].id: 'Bad_Id' is not a kebab-case id"));
            assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(":3:1: rule[1].tier: 'allow' is not allowed here; use ask or deny"));
            assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(":4:1: rule[1].reason: must say"));
            assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains(":5:1: rule[1].raw: not a valid RE2"));
            return;
        }
        throw new AssertionError("the policy should have been refused");
    }

    @Test
    void refusesADuplicateIdUnlessTheSameLayerDisablesTheOldOne() throws PolicyException {
        String dup = """
                [[rule]]
                id = "kill-by-name"
                tier = "ask"
                reason = "ask instead of refusing"
                command = ["pkill"]
                match = ["pkill x"]
                """;
        assertThatThrownBy(() -> load(user(dup))).hasMessageContaining("the id 'kill-by-name' is already used at <built-in default>:");
        Policy replaced = load(user("disable = [\"kill-by-name\"]\n" + dup));
        assertThat(replaced.rules()).filteredOn(r -> r.id().equals("kill-by-name")).singleElement()
                .extracting(Rule::tier).isEqualTo(Tier.ASK);
    }

    @Test
    void anUntrustedProjectCannotDisableDenyRulesOrAddReadOnlyCommands() throws PolicyException {
        String project = """
                disable = ["rm-recursive-critical", "ls"]
                [[read-only]]
                id = "rm-is-fine"
                command = ["rm"]
                reason = "trust me"
                options = ["*"]
                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs a person"
                command = ["npm publish"]
                """;
        Policy policy = load(new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml", project));
        assertThat(policy.rules()).extracting(Rule::id).contains("rm-recursive-critical", "no-npm-publish");
        assertThat(policy.readOnly()).extracting(ReadOnlyCommand::id).doesNotContain("rm-is-fine", "ls");
        assertThat(policy.notices()).anySatisfy(n -> assertThat(n).contains("disable the deny rule 'rm-recursive-critical'"));
        assertThat(policy.notices()).anySatisfy(n -> assertThat(n).contains("add read-only commands"));
    }

    @Test
    void theShellSettingIsTheUsersNotAnUntrustedProjects() throws PolicyException {
        assertThat(load(user("[settings]\nshell = \"/bin/zsh\"\n")).settings().shell()).isEqualTo("/bin/zsh");
        assertThat(load().settings().shell()).isNull();
        // a repository must not choose the program that runs every allowed command
        Policy policy = load(new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml", "[settings]\nshell = \"./evil\"\n"));
        assertThat(policy.settings().shell()).isNull();
        assertThat(policy.notices()).anySatisfy(n -> assertThat(n).contains("change settings"));
        assertThatThrownBy(() -> load(user("[settings]\nshell = \" \"\n"))).hasMessageContaining("settings.shell");
    }

    @Test
    void rememberDaysIsTheShortestOfTheFilesThatMayConfigureReviewAndNotAnUntrustedProjects() throws PolicyException {
        assertThat(load().review().rememberDays()).isNull();
        assertThat(load(user("[review]\nremember-days = 30\n")).review().rememberDays()).isEqualTo(30);
        PolicySource managed = new PolicySource(Layer.MANAGED, "/etc/shellgate/managed.toml", "version = 1\n[review]\nremember-days = 7\n");
        assertThat(load(managed, user("[review]\nremember-days = 30\n")).review().rememberDays()).isEqualTo(7);
        Policy project = load(new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml", "[review]\nremember-days = 1\n"));
        assertThat(project.review().rememberDays()).isNull();
        assertThat(project.notices()).anySatisfy(n -> assertThat(n).contains("configure review"));
        assertThatThrownBy(() -> load(user("[review]\nremember-days = 0\n"))).hasMessageContaining("remember-days");
    }

    @Test
    void agentAllowRulesAreHonouredUntilAFileThatMayConfigureReviewSaysNo() throws PolicyException {
        assertThat(load().review().agentAllowRules()).isTrue();
        assertThat(load(user("[review]\nagent-allow-rules = false\n")).review().agentAllowRules()).isFalse();
        PolicySource managed = new PolicySource(Layer.MANAGED, "/etc/shellgate/managed.toml",
                "version = 1\n[review]\nagent-allow-rules = false\n");
        assertThat(load(managed, user("[review]\nagent-allow-rules = true\n")).review().agentAllowRules()).isFalse();
        Policy project = load(new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml",
                "[review]\nagent-allow-rules = false\n"));
        assertThat(project.review().agentAllowRules()).isTrue();
        assertThat(project.notices()).anySatisfy(n -> assertThat(n).contains("configure review"));
        assertThatThrownBy(() -> load(user("[review]\nagent-allow-rules = \"no\"\n"))).hasMessageContaining("agent-allow-rules");
    }

    @Test
    void theAgentsOwnDialogIsOptInAndNoProjectCanTurnItOn() throws PolicyException {
        assertThat(load().review().agentDialog()).isFalse();
        assertThat(load(user("[review]\nagent-dialog = true\n")).review().agentDialog()).isTrue();
        PolicySource managedNo = new PolicySource(Layer.MANAGED, "/etc/shellgate/managed.toml",
                "version = 1\n[review]\nagent-dialog = false\n");
        assertThat(load(managedNo, user("[review]\nagent-dialog = true\n")).review().agentDialog()).isFalse();
        PolicySource managedYes = new PolicySource(Layer.MANAGED, "/etc/shellgate/managed.toml",
                "version = 1\n[review]\nagent-dialog = true\n");
        assertThat(load(managedYes).review().agentDialog()).isTrue();
        assertThat(load(managedYes, user("[review]\nagent-dialog = false\n")).review().agentDialog()).isFalse();
        // it leaves asks to the agent's rules as well: without them it is off
        assertThat(load(user("[review]\nagent-dialog = true\nagent-allow-rules = false\n")).review().agentDialog())
                .isFalse();
        Policy untrusted = load(new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml",
                "[review]\nagent-dialog = true\n"));
        assertThat(untrusted.review().agentDialog()).isFalse();
        PolicySource trust = user("[settings]\ntrusted-projects = [\"/work/repo\"]\n");
        Policy trusted = load(trust, new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml",
                "[review]\nagent-dialog = true\n"));
        assertThat(trusted.review().agentDialog()).isFalse();
        assertThat(trusted.notices()).anySatisfy(n -> assertThat(n).contains("review.agent-dialog ignored"));
        assertThatThrownBy(() -> load(user("[review]\nagent-dialog = 1\n"))).hasMessageContaining("agent-dialog");
    }

    @Test
    void aTrustedProjectMayWeaken() throws PolicyException {
        PolicySource trust = user("[settings]\ntrusted-projects = [\"/work/repo\"]\n");
        PolicySource project = new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml",
                "disable = [\"kill-by-name\"]\n");
        Policy policy = load(trust, project);
        assertThat(policy.rules()).extracting(Rule::id).doesNotContain("kill-by-name");
        assertThat(policy.notices()).isEmpty();
    }

    @Test
    void discoversUserAndProjectFiles(@TempDir Path dir) throws Exception {
        Path config = dir.resolve("config/shellgate/policy.toml");
        Files.createDirectories(config.getParent());
        Files.writeString(config, "version = 1\n");
        Path repo = dir.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));
        Files.createDirectories(repo.resolve("src/deep"));
        Path project = repo.resolve(".shellgate/policy.toml");
        Files.createDirectories(project.getParent());
        Files.writeString(project, "version = 1\n");
        List<PolicySource> sources = PolicyLoader.discover(repo.resolve("src/deep"),
                Map.of("XDG_CONFIG_HOME", dir.resolve("config").toString(), "HOME", dir.toString()), null);
        assertThat(sources).extracting(PolicySource::layer).containsExactly(Layer.DEFAULT, Layer.USER, Layer.PROJECT);
        assertThat(sources.get(2).name()).isEqualTo(project.toString());
    }

    @Test
    void aMissingExplicitPolicyIsAnError(@TempDir Path dir) {
        assertThatThrownBy(() -> PolicyLoader.discover(dir, Map.of(), dir.resolve("nope.toml")))
                .hasMessageContaining("nope.toml: no such policy file");
    }

    @Test
    void aPolicyPathThatIsNotAReadableFileIsAnErrorNotALayerPassedOver(@TempDir Path dir) throws Exception {
        Map<String, String> env = Map.of("XDG_CONFIG_HOME", dir.resolve("config").toString());
        Path user = dir.resolve("config/shellgate/policy.toml");
        Files.createDirectories(user);
        assertThatThrownBy(() -> PolicyLoader.discover(dir, env, null))
                .hasMessageContaining(user + ": the user policy is not a readable file (it is a directory)");
        Files.delete(user);
        Files.createSymbolicLink(user, user);
        assertThatThrownBy(() -> PolicyLoader.discover(dir, env, null))
                .hasMessageContaining("the user policy is not a readable file (a link that leads nowhere, or in a loop)");
        Files.delete(user);
        Files.createSymbolicLink(user, dir.resolve("gone.toml"));
        assertThatThrownBy(() -> PolicyLoader.discover(dir, env, null)).hasMessageContaining("a link that leads nowhere");
        Files.delete(user);
        assertThat(PolicyLoader.discover(dir, env, null)).extracting(PolicySource::layer).containsExactly(Layer.DEFAULT);
        Path project = Files.createDirectories(dir.resolve(".shellgate/policy.toml"));
        assertThatThrownBy(() -> PolicyLoader.discover(dir, env, null)).hasMessageContaining("the project's policy is not a readable file");
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        assertThatThrownBy(() -> PolicyLoader.discover(elsewhere, Map.of(), project))
                .hasMessageContaining("the policy given with --policy is not a readable file (it is a directory)");
    }

    @Test
    void theAuditLogIsRequiredOnlyWhereAFileSaysSoAndAProjectMayOnlyTurnThatOn() throws PolicyException {
        assertThat(load().audit().required()).isFalse();
        assertThat(load(user("[audit]\nrequired = true\n")).audit().required()).isTrue();
        PolicySource projectOn = new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml", "[audit]\nrequired = true\n");
        assertThat(load(projectOn).audit().required()).isTrue();
        PolicySource projectOff = new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml", "[audit]\nrequired = false\n");
        Policy off = load(user("[audit]\nrequired = true\n"), projectOff);
        assertThat(off.audit().required()).isTrue();
        assertThat(off.notices()).anySatisfy(n -> assertThat(n).contains("stop requiring the audit log"));
        assertThatThrownBy(() -> load(user("[audit]\nrequired = \"yes\"\n"))).hasMessageContaining("audit");
        assertThatThrownBy(() -> load(user("[audit]\nkept = 3\n"))).hasMessageContaining("kept");
    }

    @Test
    void parsesOptionSpecs() {
        assertThat(OptionSpec.parse("-x")).isEqualTo(new OptionSpec("-x", OptionSpec.Arity.NONE));
        assertThat(OptionSpec.parse("--color=?")).isEqualTo(new OptionSpec("--color", OptionSpec.Arity.OPTIONAL));
        assertThat(OptionSpec.parse("-n=")).isEqualTo(new OptionSpec("-n", OptionSpec.Arity.REQUIRED));
        assertThat(OptionSpec.parse("-NUM").arity()).isEqualTo(OptionSpec.Arity.NUMERIC);
        assertThatThrownBy(() -> OptionSpec.parse("x")).hasMessageContaining("is not an option spec");
        assertThat(OptionSpec.parse("-I=?")).isEqualTo(new OptionSpec("-I", OptionSpec.Arity.OPTIONAL));
    }

    @Test
    void parsesTheValueKindsOfOptionSpecs() {
        assertThat(OptionSpec.parse("-f=file")).isEqualTo(new OptionSpec("-f", OptionSpec.Arity.REQUIRED,
                OptionSpec.Value.FILE, List.of()));
        assertThat(OptionSpec.parse("--output=out").value()).isEqualTo(OptionSpec.Value.OUTPUT);
        assertThat(OptionSpec.parse("--pre=code").value()).isEqualTo(OptionSpec.Value.CODE);
        assertThat(OptionSpec.parse("-n=num").value()).isEqualTo(OptionSpec.Value.NUMBER);
        assertThat(OptionSpec.parse("-e=pattern").value()).isEqualTo(OptionSpec.Value.PATTERN);
        assertThat(OptionSpec.parse("--color=?text")).isEqualTo(new OptionSpec("--color", OptionSpec.Arity.OPTIONAL,
                OptionSpec.Value.TEXT, List.of()));
        assertThat(OptionSpec.parse("-d={read,skip,recurse}")).isEqualTo(new OptionSpec("-d", OptionSpec.Arity.REQUIRED,
                OptionSpec.Value.CHOICE, List.of("read", "skip", "recurse")));
        assertThat(OptionSpec.parse("-d={read,skip,recurse}").toString()).isEqualTo("-d={read,skip,recurse}");
        // the older form, a bare =, still loads: a value of any kind
        assertThat(OptionSpec.parse("-n=").value()).isEqualTo(OptionSpec.Value.UNSPECIFIED);
        assertThatThrownBy(() -> OptionSpec.parse("-n=number")).hasMessageContaining("'number' is not a value kind");
        assertThatThrownBy(() -> OptionSpec.parse("-d={a,}")).hasMessageContaining("is not a value word");
    }

    @Test
    void reportsABadValueKindWithItsLocation() {
        String text = "version = 1\n\n[[read-only]]\nid = \"mytool\"\ncommand = [\"mytool\"]\nreason = \"r\"\n"
                + "options = [\"-x=path\"]\nmatch = [\"mytool\"]\n";
        assertThatThrownBy(() -> load(user(text))).hasMessageContaining("policy.toml:7:")
                .hasMessageContaining("'path' is not a value kind");
    }
}
