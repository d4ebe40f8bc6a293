package io.shellgate.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The administrator's managed layer: read first after the default, and never loosened by a later layer. */
class ManagedPolicyTest {

    private static final String MANAGED_FILE = "/etc/shellgate/policy.toml";
    private static final String NO_PUBLISH = """
            [[rule]]
            id = "no-npm-publish"
            tier = "deny"
            reason = "publishing needs the release process"
            command = ["npm publish"]
            match = ["npm publish"]
            not-match = ["npm test"]

            [[rule]]
            id = "ask-docker"
            tier = "ask"
            reason = "containers are reviewed"
            command = ["docker"]
            match = ["docker ps"]
            """;

    private static PolicySource managed(String text) {
        return new PolicySource(Layer.MANAGED, MANAGED_FILE, text);
    }

    private static PolicySource user(String text) {
        return new PolicySource(Layer.USER, "/home/u/.config/shellgate/policy.toml", text);
    }

    private static PolicySource project(String text) {
        return new PolicySource(Layer.PROJECT, "/work/repo/.shellgate/policy.toml", text);
    }

    private static PolicySource explicit(String text) {
        return new PolicySource(Layer.EXPLICIT, "/tmp/given.toml", text);
    }

    private static Policy load(PolicySource... layers) throws PolicyException {
        List<PolicySource> all = new ArrayList<>();
        all.add(PolicyLoader.builtIn());
        all.addAll(List.of(layers));
        return PolicyLoader.load(all, "/home/u");
    }

    @Test
    void aManagedDenyOrAskRuleCannotBeDisabledByTheUserAProjectOrPolicy() throws PolicyException {
        String disable = "disable = [\"no-npm-publish\", \"ask-docker\", \"rm-recursive-critical\"]\n";
        for (PolicySource lower : List.of(user(disable), project(disable), explicit(disable))) {
            Policy p = load(managed(NO_PUBLISH), lower);
            assertThat(p.rules()).extracting(Rule::id).as(lower.layer().name())
                    .contains("no-npm-publish", "ask-docker", "rm-recursive-critical");
            assertThat(p.notices()).as(lower.layer().name()).anySatisfy(n -> assertThat(n)
                    .contains("the managed policy " + MANAGED_FILE + " may only be tightened")
                    .contains("disable the deny rule 'no-npm-publish'"));
        }
    }

    @Test
    void withoutAManagedLayerTheUserMayStillDisableADefaultRule() throws PolicyException {
        Policy p = load(user("disable = [\"rm-recursive-critical\"]\n"));
        assertThat(p.rules()).extracting(Rule::id).doesNotContain("rm-recursive-critical");
        assertThat(p.fleet().managedFile()).isNull();
    }

    @Test
    void theManagedLayerMayDisableADefaultRuleAndThenNoLayerBringsBackLessThanItSays() throws PolicyException {
        Policy p = load(managed("disable = [\"git-reset-hard\"]\n"), user(NO_PUBLISH));
        assertThat(p.rules()).extracting(Rule::id).doesNotContain("git-reset-hard").contains("no-npm-publish");
    }

    @Test
    void everyEntryKnowsTheLayerAndPlaceItComesFrom() throws PolicyException {
        Policy p = load(managed(NO_PUBLISH), user("""
                [[rule]]
                id = "ask-kubectl"
                tier = "ask"
                reason = "clusters are reviewed"
                command = ["kubectl"]
                match = ["kubectl get pods"]
                """));
        assertThat(p.entry("no-npm-publish").orElseThrow().layer()).isEqualTo(Layer.MANAGED);
        assertThat(p.entry("no-npm-publish").orElseThrow().location().toString()).startsWith(MANAGED_FILE + ":1:");
        assertThat(p.entry("ask-kubectl").orElseThrow().layer()).isEqualTo(Layer.USER);
        assertThat(p.entry("rm-recursive-critical").orElseThrow().layer()).isEqualTo(Layer.DEFAULT);
        assertThat(p.sources()).containsExactly("default: " + PolicyLoader.BUILT_IN, "managed: " + MANAGED_FILE,
                "user: /home/u/.config/shellgate/policy.toml");
        assertThat(p.fleet().managedFile()).isEqualTo(MANAGED_FILE);
    }

    @Test
    void budgetsTheManagedLayerSetMayBeLoweredButNotRaised() throws PolicyException {
        Policy raised = load(managed("[settings]\nmax-input-bytes = 4096\nmax-depth = 4\nshell = \"/bin/bash\"\n"),
                user("[settings]\nmax-input-bytes = 100000\nmax-depth = 2\nshell = \"/bin/zsh\"\n"));
        assertThat(raised.settings().maxInputBytes()).isEqualTo(4096);
        assertThat(raised.settings().maxDepth()).isEqualTo(2);
        assertThat(raised.settings().shell()).isEqualTo("/bin/bash");
        assertThat(raised.notices()).anySatisfy(n -> assertThat(n).contains("raise max-input-bytes above 4096"))
                .anySatisfy(n -> assertThat(n).contains("change settings.shell"));
    }

    @Test
    void theLlmKeysTheManagedLayerSetStayAndItMaySwitchTheReviewerOff() throws PolicyException {
        Policy p = load(managed("""
                [review.llm]
                provider = "openai"
                base-url = "http://llm.internal:8000/v1"
                may-approve = false
                """), user("""
                [review.llm]
                base-url = "http://attacker.example/v1"
                may-approve = true
                model = "m"
                """));
        assertThat(p.review().llm()).containsEntry("base-url", "http://llm.internal:8000/v1")
                .containsEntry("may-approve", "false").containsEntry("model", "m");
        assertThat(p.fleet().pinnedLlm()).containsExactlyInAnyOrder("provider", "base-url", "may-approve");
        assertThat(p.fleet().llmReviewer()).isTrue();
        assertThat(load(managed("[managed]\nllm-reviewer = false\n")).fleet().llmReviewer()).isFalse();
    }

    @Test
    void rememberedApprovalsSwitchedOffIgnoreEveryLaterLayersApprovals() throws PolicyException {
        String approval = "[[approved]]\nid = \"npm-test\"\ncommand = \"npm test\"\n";
        Policy p = load(managed("[managed]\nremembered-approvals = false\n"), user(approval));
        assertThat(p.review().approvals()).isEmpty();
        assertThat(p.fleet().rememberedApprovals()).isFalse();
        assertThat(p.notices()).anySatisfy(n -> assertThat(n).contains("switched remembered approvals off"));
        assertThat(load(managed("[managed]\nremembered-approvals = true\n"), user(approval)).review().approvals()).hasSize(1);
    }

    @Test
    void tightenOnlyTreatsEveryLaterLayerLikeAnUntrustedProject() throws PolicyException {
        String readOnly = """
                [[read-only]]
                id = "my-tool"
                command = ["my-tool"]
                reason = "prints"
                match = ["my-tool"]
                """;
        assertThat(load(managed("[managed]\ntighten-only = true\n"), user(readOnly)).entry("my-tool")).isEmpty();
        assertThat(load(managed("[managed]\ntighten-only = false\n"), user(readOnly)).entry("my-tool")).isPresent();
    }

    @Test
    void anAuditLogTheManagedLayerRequiresStaysRequired() throws PolicyException {
        Policy p = load(managed("[audit]\nrequired = true\n"), user("[audit]\nrequired = false\n"),
                explicit("[audit]\nrequired = false\n"));
        assertThat(p.audit().required()).isTrue();
        assertThat(p.notices()).anySatisfy(n -> assertThat(n).contains("may only be tightened")
                .contains("stop requiring the audit log"));
        assertThat(load(user("[audit]\nrequired = true\n"), explicit("[audit]\nrequired = false\n")).audit().required())
                .as("without a managed layer a later trusted file may drop it").isFalse();
        assertThat(load(managed("[audit]\nrequired = true\n\n[audit.otlp]\nendpoint = \"http://c:4318\"\n")).fleet().otlp())
                .containsEntry("endpoint", "http://c:4318");
    }

    @Test
    void onlyTheManagedFileMayHaveAManagedTable() {
        assertThatThrownBy(() -> load(user("[managed]\nremembered-approvals = false\n")))
                .hasMessageContaining("only the managed policy file");
        assertThatThrownBy(() -> load(managed("[managed]\nremembered = false\n"))).hasMessageContaining("remembered");
    }

    @Test
    void theExportIsSetByTheManagedOrUserLayerNeverByAProjectAndPinnedKeysStay() throws PolicyException {
        Policy p = load(managed("[audit.otlp]\nendpoint = \"http://collector.internal:4318\"\n"),
                user("[audit.otlp]\nendpoint = \"http://elsewhere:4318\"\nservice-name = \"laptop\"\n"),
                project("[audit.otlp]\nheaders = \"x=y\"\n"));
        assertThat(p.fleet().otlp()).containsEntry("endpoint", "http://collector.internal:4318")
                .containsEntry("service-name", "laptop").doesNotContainKey("headers");
        assertThat(p.fleet().pinnedOtlp()).containsExactly("endpoint");
        assertThat(p.notices()).anySatisfy(n -> assertThat(n).contains("change audit.otlp.endpoint"))
                .anySatisfy(n -> assertThat(n).contains("a project's policy file cannot say where"));
        assertThat(load(user("[audit.otlp]\nendpoint = \"http://c:4318\"\n")).fleet().otlp())
                .containsEntry("endpoint", "http://c:4318");
        assertThatThrownBy(() -> load(user("[audit.otlp]\nendpoint = \"collector:4318\"\n")))
                .hasMessageContaining("not an http:// or https:// URL");
        assertThat(load(user("[audit.otlp]\nprotocol = \"grpc\"\n")).fleet().otlp()).containsEntry("protocol", "grpc");
        assertThatThrownBy(() -> load(user("[audit.otlp]\nprotocol = \"http/json\"\n"))).hasMessageContaining("\"http/protobuf\" or \"grpc\"");
    }

    @Test
    void aManagedFileOnlyItsOwnerCanWriteIsReadFirst(@TempDir Path root) throws Exception {
        Path file = managedFile(root, NO_PUBLISH);
        List<PolicySource> sources = PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), own(file));
        assertThat(sources).extracting(PolicySource::layer).containsExactly(Layer.DEFAULT, Layer.MANAGED);
        assertThat(sources.get(1).name()).isEqualTo(file.toString());
        assertThat(PolicyLoader.load(sources, null).entry("no-npm-publish").orElseThrow().layer()).isEqualTo(Layer.MANAGED);
        Files.delete(file);
        assertThat(PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), own(file)))
                .extracting(PolicySource::layer).containsExactly(Layer.DEFAULT);
    }

    @Test
    void aManagedFileOthersCanWriteIsAnErrorThatRefuses(@TempDir Path root) throws Exception {
        Path file = managedFile(root, NO_PUBLISH);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), own(file)))
                .isInstanceOf(PolicyException.class)
                .hasMessageContaining("every command is refused").hasMessageContaining(file + " is writable by");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(file.getParent(), PosixFilePermissions.fromString("rwxrwxr-x"));
        assertThatThrownBy(() -> PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), own(file)))
                .hasMessageContaining(file.getParent() + " is writable by its group");
        // the sticky bit lets others add files to a directory but not replace its owner's
        Files.setPosixFilePermissions(file.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        Files.setAttribute(file.getParent(), "unix:mode", 01777);
        assertThat(PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), own(file)))
                .extracting(PolicySource::layer).containsExactly(Layer.DEFAULT, Layer.MANAGED);
    }

    @Test
    void aManagedFileOwnedBySomeoneElseIsAnErrorThatRefuses(@TempDir Path root) throws Exception {
        Path file = managedFile(root, NO_PUBLISH);
        // as root the file goes to another user; as anyone else the check expects another owner than the file's
        ManagedPolicy.Place place;
        if (ManagedPolicy.ownUid() == 0) {
            Files.setAttribute(file, "unix:uid", 4242);
            place = own(file);
        } else {
            place = new ManagedPolicy.Place(file, ManagedPolicy.ownUid() + 4242);
        }
        int owner = (Integer) Files.getAttribute(file, "unix:uid");
        assertThatThrownBy(() -> PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), place))
                .hasMessageContaining(file + " is owned by user id " + owner + ", not root")
                .hasMessageContaining("every command is refused");
    }

    @Test
    void aLinkToAFileSomeoneElseOwnsIsAnErrorThatRefuses(@TempDir Path root) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(ManagedPolicy.ownUid() == 0, "only root can give a file to another user");
        Path file = managedFile(root, NO_PUBLISH);
        Path elsewhere = Files.writeString(root.resolve("mine.toml"), NO_PUBLISH);
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setAttribute(elsewhere, "unix:uid", 4242);
        Files.delete(file);
        Files.createSymbolicLink(file, elsewhere);
        assertThatThrownBy(() -> PolicyLoader.discover(root, Map.of(), null, FileFacts.live(), own(file)))
                .hasMessageContaining(elsewhere + " is owned by user id 4242, not root");
    }

    @Test
    void theManagedPathIsFixedAndATestPropertyNeverStandsInForARealManagedFile(@TempDir Path root) throws Exception {
        assertThat(ManagedPolicy.PATH).isEqualTo(Path.of("/etc/shellgate/policy.toml"));
        assertThat(ManagedPolicy.Place.SYSTEM).isEqualTo(new ManagedPolicy.Place(ManagedPolicy.PATH, 0));
        assertThat(System.getProperty(ManagedPolicy.TEST_PROPERTY)).isNull();
        assertThat(ManagedPolicy.place()).isEqualTo(ManagedPolicy.Place.SYSTEM);
        Path file = root.resolve("policy.toml");
        System.setProperty(ManagedPolicy.TEST_PROPERTY, file.toString());
        try {
            ManagedPolicy.Place expected = Files.exists(ManagedPolicy.PATH, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                    ? ManagedPolicy.Place.SYSTEM : own(file);
            assertThat(ManagedPolicy.place()).isEqualTo(expected);
        } finally {
            System.clearProperty(ManagedPolicy.TEST_PROPERTY);
        }
    }

    /** The managed file at {@code file}, to be owned by root or the user the tests run as. */
    private static ManagedPolicy.Place own(Path file) {
        return new ManagedPolicy.Place(file, ManagedPolicy.ownUid());
    }

    /** A managed file as an administrator would install it, owned by whoever runs the tests. */
    private static Path managedFile(Path root, String text) throws Exception {
        Path dir = Files.createDirectories(root.resolve("etc/shellgate"));
        for (Path p = dir; p.startsWith(root); p = p.getParent()) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path file = Files.writeString(dir.resolve("policy.toml"), text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }
}
