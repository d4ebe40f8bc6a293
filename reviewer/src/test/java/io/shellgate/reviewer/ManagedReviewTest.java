package io.shellgate.reviewer;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Reviewer;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the managed layer does to review: its asks are not lifted by what a user remembered or configured. */
class ManagedReviewTest {

    private static final String ASK_RELEASE = """
            [[rule]]
            id = "ask-release-files"
            tier = "ask"
            reason = "release files are reviewed"
            command = ["touch"]
            args-any = ["release-*"]
            match = ["touch release-a"]
            not-match = ["touch other"]
            """;
    private static final String APPROVE_IT = "[[approved]]\nid = \"release-a\"\ncommand = \"touch release-a\"\n";

    @TempDir
    Path dir;

    private Path home;
    private Path project;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        project = Files.createDirectories(dir.resolve("project"));
        Files.createDirectories(project.resolve(".git"));
        env.put("HOME", home.toString());
        env.put("XDG_STATE_HOME", dir.resolve("state").toString());
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
    }

    private Policy policy(String managed, String user) throws Exception {
        List<PolicySource> sources = new ArrayList<>(List.of(PolicyLoader.builtIn()));
        if (managed != null) {
            sources.add(new PolicySource(Layer.MANAGED, "/etc/shellgate/policy.toml", managed));
        }
        if (user != null) {
            sources.add(new PolicySource(Layer.USER, home.resolve(".config/shellgate/policy.toml").toString(), user));
        }
        return PolicyLoader.load(sources, home.toString());
    }

    private Decision review(Policy policy, Reviewer reviewer, String command, String session) throws PolicyException {
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, project, Map.of("PATH", "/usr/bin:/bin", "HOME",
                home.toString()));
        return reviewer.review(new ReviewRequest(request, Judges.create(policy).judge(request),
                new Origin(EntryPoint.SHELL_C, 1, "", session), null));
    }

    @Test
    void aUsersRememberedApprovalDoesNotCoverAManagedAskButTheManagedFilesOwnDoes() throws Exception {
        Policy userRule = policy(null, ASK_RELEASE + APPROVE_IT);
        assertThat(review(userRule, Reviewers.create(userRule, env), "touch release-a", "s").step()).isEqualTo(Step.MEMORY);
        Policy managedRule = policy(ASK_RELEASE, APPROVE_IT);
        Decision d = review(managedRule, Reviewers.create(managedRule, env), "touch release-a", "s");
        assertThat(d.runs()).isFalse();
        assertThat(d.step()).isEqualTo(Step.TIMEOUT);
        // a user approval of a line the managed rule does not touch still counts
        Policy other = policy(ASK_RELEASE, "[[approved]]\nid = \"other\"\ncommand = \"touch other\"\n");
        assertThat(review(other, Reviewers.create(other, env), "touch other", "s").step()).isEqualTo(Step.MEMORY);
        Policy managedApproval = policy(ASK_RELEASE + APPROVE_IT, null);
        assertThat(review(managedApproval, Reviewers.create(managedApproval, env), "touch release-a", "s").step())
                .isEqualTo(Step.MEMORY);
    }

    @Test
    void aSessionAnswerDoesNotCoverAManagedAskAndIsNotRememberedWhenApprovalsAreOff() throws Exception {
        for (String managed : List.of(ASK_RELEASE, "[managed]\nremembered-approvals = false\n")) {
            Policy p = policy(managed, null);
            env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
            AtomicReference<String> answered = new AtomicReference<>();
            ApprovalDesk desk = ApprovalDesk.open(env);
            Thread t = Thread.ofVirtual().start(() -> {
                try (desk) {
                    answered.set(desk.next(Duration.ofSeconds(20)).answer(Answer.SESSION, "the test") ? "yes" : "no");
                } catch (Exception e) {
                    answered.set("failed: " + e);
                }
            });
            Decision first = review(p, Reviewers.create(p, env), "touch release-a", "session-1");
            t.join();
            assertThat(answered.get()).isEqualTo("yes");
            assertThat(first.runs()).isTrue();
            env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
            Decision again = review(p, Reviewers.create(p, env), "touch release-a", "session-1");
            assertThat(again.runs()).as(managed).isFalse();
            if (managed.contains("remembered-approvals")) {
                assertThat(first.message()).contains("not remembered: the managed policy switched remembered approvals off");
            }
        }
    }

    @Test
    void aLaterLayersReadOnlyCommandOrWrapperDoesNotTurnAManagedAskOrDenyIntoAnAllow() throws Exception {
        String managed = ASK_RELEASE + """

                [[rule]]
                id = "no-npm-publish"
                tier = "deny"
                reason = "publishing needs the release process"
                command = ["npm publish"]
                match = ["npm publish"]
                """;
        String user = """
                [[read-only]]
                id = "touch-is-harmless"
                command = ["touch", "npm"]
                reason = "the user says so"
                match = ["touch other"]

                [[wrapper]]
                id = "my-wrapper"
                names = ["mywrap"]
                tier = "allow"
                reason = "runs its arguments"
                match = ["mywrap ls"]
                """;
        Policy p = policy(managed, user);
        var judge = Judges.create(p);
        for (String line : List.of("touch release-a", "mywrap touch release-a")) {
            assertThat(judge.judge(new JudgeRequest(line, Dialect.BASH, project, Map.of("PATH", "/usr/bin:/bin")))
                    .tier()).as(line).isEqualTo(io.shellgate.rules.Tier.ASK);
        }
        for (String line : List.of("npm publish", "mywrap npm publish")) {
            assertThat(judge.judge(new JudgeRequest(line, Dialect.BASH, project, Map.of("PATH", "/usr/bin:/bin")))
                    .tier()).as(line).isEqualTo(io.shellgate.rules.Tier.DENY);
        }
        // without the managed rules the user's entries do allow them
        Policy mine = policy(null, user);
        assertThat(Judges.create(mine).judge(new JudgeRequest("touch release-a", Dialect.BASH, project,
                Map.of("PATH", "/usr/bin:/bin"))).tier()).isEqualTo(io.shellgate.rules.Tier.ALLOW);
    }

    @Test
    void theManagedLayerSwitchesTheLlmReviewerOffWhateverTheEnvironmentSays() throws Exception {
        env.put("SHELLGATE_LLM_PROVIDER", "no-such-provider");
        Policy plain = policy(null, null);
        assertThat(review(plain, Reviewers.create(plain, env), "touch a", "s").message()).contains("the LLM reviewer is not used");
        Policy off = policy("[managed]\nllm-reviewer = false\n", null);
        assertThat(review(off, Reviewers.create(off, env), "touch a", "s").message()).doesNotContain("LLM");
    }
}
