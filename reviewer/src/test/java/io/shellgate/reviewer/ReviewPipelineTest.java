package io.shellgate.reviewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.Person;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Reviewer;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.JsonTrees;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import io.shellgate.rules.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The review pipeline with the real judge, real policy files and the real approvals desk. */
class ReviewPipelineTest {

    @TempDir
    Path dir;

    private Path home;
    private Path project;
    private Path userPolicy;
    private final Map<String, String> env = new HashMap<>();

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        project = Files.createDirectories(dir.resolve("project"));
        Files.createDirectories(project.resolve(".git"));
        userPolicy = home.resolve(".config/shellgate/policy.toml");
        env.put("HOME", home.toString());
        env.put("XDG_STATE_HOME", dir.resolve("state").toString());
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "2");
    }

    private Policy policy(String userText) throws PolicyException {
        List<PolicySource> sources = new ArrayList<>(List.of(PolicyLoader.builtIn()));
        if (userText != null) {
            sources.add(new PolicySource(Layer.USER, userPolicy.toString(), "version = 1\n" + userText));
        }
        return PolicyLoader.load(sources, home.toString());
    }

    private Decision review(Policy policy, String command) {
        return review(policy, command, project, "s1");
    }

    private Decision review(Policy policy, String command, Path cwd, String session) {
        return review(policy, Reviewers.create(policy, env), command, cwd, session);
    }

    private Decision review(Policy policy, Reviewer reviewer, String command, Path cwd, String session) {
        try {
            JudgeRequest request = new JudgeRequest(command, Dialect.BASH, cwd,
                    Map.of("PATH", env.getOrDefault("CMD_PATH", "/usr/bin:/bin"), "HOME", home.toString()));
            Verdict v = Judges.create(policy).judge(request);
            return reviewer.review(new ReviewRequest(request, v, new Origin(EntryPoint.SHELL_C, 42, "", session), null));
        } catch (PolicyException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A start as the javaagent sees it: an argument vector, judged as the line it makes. */
    private Decision reviewArgv(Policy policy, List<String> argv) {
        try {
            JudgeRequest request = new JudgeRequest(null, Dialect.BASH, project,
                    Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString()), null, false, argv);
            Verdict v = Judges.create(policy).judge(request);
            return Reviewers.create(policy, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.JAVAAGENT, 42, "", ""), null));
        } catch (PolicyException e) {
            throw new IllegalStateException(e);
        }
    }

    private List<JsonNode> audit() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : AuditTrail.lines(env)) {
            out.add(JsonTrees.parse(line));
        }
        return out;
    }

    @Test
    void allowAndDenyPassThroughAndAreLogged() throws Exception {
        Policy p = policy(null);
        assertThat(review(p, "ls -la")).extracting(Decision::runs, Decision::step).containsExactly(true, Step.JUDGE);
        Decision deny = review(p, "rm -rf ~");
        assertThat(deny.runs()).isFalse();
        assertThat(deny.step()).isEqualTo(Step.JUDGE);
        List<JsonNode> log = audit();
        assertThat(log).hasSize(2);
        assertThat(log.get(1).path("tier").asText()).isEqualTo("deny");
        assertThat(log.get(1).path("run").asBoolean()).isFalse();
        assertThat(log.get(1).path("entry").asText()).isEqualTo("shell-c");
        assertThat(log.get(1).path("cmd").asText()).isEqualTo("rm -rf ~");
        assertThat(log.get(1).path("rules").get(0).asText()).isNotEmpty();
    }

    @Test
    void anAskWithNobodyToAskIsRefusedAtOnceSayingHowToApproveIt() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        Decision d = review(policy(null), "touch a");
        assertThat(d.runs()).isFalse();
        assertThat(d.step()).isEqualTo(Step.TIMEOUT);
        assertThat(d.message()).contains("nobody can answer: there is no terminal to ask on, and nobody runs shellgate"
                + " approvals --watch").contains("start shellgate approvals --watch in a terminal of your own")
                .contains("there a person can approve \"touch a\" once (y) or for good").doesNotContain(userPolicy.toString());
    }

    @Test
    void anAskAWatcherLeavesUnansweredIsRefusedWhenTheTimeRunsOut() throws Exception {
        try (ApprovalDesk desk = ApprovalDesk.open(env)) {
            Decision d = review(policy(null), "touch a");
            assertThat(d.runs()).isFalse();
            assertThat(d.message()).contains("nobody answered within 2 s");
            ApprovalDesk.Asked asked = desk.next(Duration.ofSeconds(1));
            assertThat(asked.waiting().command()).isEqualTo("touch a");
            // its asker stopped waiting (the desk sees its connection close): an answer now reaches nobody
            for (int i = 0; i < 500 && !asked.withdrawn(); i++) {
                Thread.sleep(20);
            }
            assertThat(asked.withdrawn()).isTrue();
            assertThat(asked.answer(Answer.ONCE, "too late")).isFalse();
        }
    }

    @Test
    void aWatcherWhosePersonLeftAQuestionUnansweredIsNotWaitedForUntilThePersonIsBack() throws Exception {
        try (ApprovalDesk desk = ApprovalDesk.open(env)) {
            assertThat(review(policy(null), "touch a").message()).contains("nobody answered within 2 s");
            for (int i = 0; i < 500 && desk.away() == null; i++) {
                Thread.sleep(20);
            }
            assertThat(desk.away()).isEqualTo("its question about touch a went unanswered");
            Decision second = review(policy(null), "touch b");
            assertThat(second.runs()).isFalse();
            assertThat(second.message()).contains("shellgate approvals --watch is open, but its question about touch a went"
                    + " unanswered; a key pressed there makes it ask again");
            assertThat(second.message()).doesNotContain("nobody answered within");
            assertThat(desk.present()).isEqualTo(1);
            assertThat(desk.away()).isNull();
            AtomicReference<Decision> third = new AtomicReference<>();
            Thread t = Thread.ofVirtual().start(() -> third.set(review(policyOrNull(), "touch c")));
            ApprovalDesk.Asked asked;
            do {
                asked = desk.next(Duration.ofSeconds(5));
            } while (asked != null && !asked.waiting().command().equals("touch c"));
            assertThat(asked).isNotNull();
            assertThat(asked.answer(Answer.ONCE, "me")).isTrue();
            t.join();
            assertThat(third.get().runs()).isTrue();
        }
    }

    private Policy policyOrNull() {
        try {
            return policy(null);
        } catch (PolicyException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aSilentLlmAndAPersonShareOneBudgetAndTheClientIsToldWhatItWaitsOn() throws Exception {
        // an LLM endpoint that accepts and never answers, with a time-out of its own above the budget
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
            Thread accepting = Thread.ofVirtual().start(() -> {
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            });
            env.putAll(Map.of("SHELLGATE_LLM_PROVIDER", "openai", "SHELLGATE_LLM_BASE_URL", "http://127.0.0.1:"
                    + silent.getLocalPort() + "/v1", "SHELLGATE_LLM_MODEL", "x", "SHELLGATE_LLM_API_KEY", "k",
                    "SHELLGATE_LLM_TIMEOUT_SECONDS", "60", "SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600"));
            Policy p = policy(null);
            JudgeRequest request = new JudgeRequest("touch a", Dialect.BASH, project,
                    Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString()));
            Verdict v = Judges.create(p).judge(request);
            List<String> told = new java.util.concurrent.CopyOnWriteArrayList<>();
            try (ApprovalDesk desk = ApprovalDesk.open(env)) {
                Decision d = Reviewers.create(p, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.HOOK, 42,
                        "gemini-cli", ""), null, true, null, Duration.ofSeconds(10),
                        (step, atMost) -> told.add(step.id() + " " + atMost.toSeconds())));
                assertThat(d.runs()).isFalse();
                assertThat(d.step()).isEqualTo(Step.TIMEOUT);
                // the LLM step had at most 8 of the 10 s, whatever its own time-out; the person the rest
                assertThat(told.getFirst()).isEqualTo("llm 8");
                assertThat(d.message()).containsAnyOf("nobody answered within 1 s", "nobody answered within 2 s", "ran out");
                if (told.size() > 1) {
                    assertThat(told.get(1)).matches("person [0-2]");
                }
            } finally {
                silent.close();
                for (java.net.Socket s : held) {
                    s.close();
                }
                accepting.join();
            }
            assertThat(held).isNotEmpty();
        }
    }

    @Test
    void aCapBelowTheReviewTimeEndsTheWaitForAWatcherSooner() throws Exception {
        // an agent's hook that must answer before the agent's own timeout (Gemini CLI lets the call
        // through after 60 s): whoever watches is asked for at most the cap
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        Policy p = policy(null);
        JudgeRequest request = new JudgeRequest("touch a", Dialect.BASH, project,
                Map.of("PATH", "/usr/bin:/bin", "HOME", home.toString()));
        Verdict v = Judges.create(p).judge(request);
        try (ApprovalDesk desk = ApprovalDesk.open(env)) {
            Decision d = Reviewers.create(p, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.HOOK, 42, "gemini-cli",
                    ""), null, true, null, Duration.ofSeconds(1)));
            assertThat(d.runs()).isFalse();
            assertThat(d.step()).isEqualTo(Step.TIMEOUT);
            assertThat(d.message()).contains("nobody answered within 1 s");
            assertThat(desk.next(Duration.ofSeconds(1)).waiting().command()).isEqualTo("touch a");
        }
        // and an answer within it counts
        ExecutorService answering = Executors.newSingleThreadExecutor();
        try (ApprovalDesk desk = ApprovalDesk.open(env)) {
            answering.submit(() -> desk.next(Duration.ofSeconds(20)).answer(Answer.ONCE, "a person"));
            Decision d = Reviewers.create(p, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.HOOK, 42, "gemini-cli",
                    ""), null, true, null, Duration.ofSeconds(30)));
            assertThat(d.runs()).as(d.message()).isTrue();
            assertThat(d.step()).isEqualTo(Step.PERSON);
        } finally {
            answering.shutdownNow();
        }
    }

    @Test
    void aWatcherThatStopsLeavesNobodyAndTheAskIsRefused() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        ApprovalDesk desk = ApprovalDesk.open(env);
        Thread.ofVirtual().start(() -> {
            try {
                desk.next(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                return;
            }
            desk.close();
        });
        Decision d = review(policy(null), "touch a");
        assertThat(d.runs()).isFalse();
        assertThat(d.message()).contains("shellgate approvals --watch stopped");
    }

    @Test
    void filesWrittenInTheStateDirectoryAnswerNothing() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        Path state = Files.createDirectories(dir.resolve("state/shellgate"));
        // what an agent's file tools could write: a socket cannot be made that way, an answer has nowhere to go
        Files.writeString(state.resolve("approvals.sock"), "{\"v\":1,\"answer\":\"once\"}\n");
        Files.createDirectories(state.resolve("pending"));
        Files.writeString(state.resolve("pending/x.answer"), "{\"answer\":\"once\"}");
        Decision d = review(policy(null), "touch a");
        assertThat(d.runs()).isFalse();
        assertThat(d.message()).contains("nobody can answer");
    }

    @Test
    void aDeskInAStateDirectoryOthersMayWriteIsNotBelieved() throws Exception {
        try (ApprovalDesk desk = ApprovalDesk.open(env)) {
            Path state = desk.socket().getParent();
            Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwxrwxrwx"));
            try {
                Decision d = review(policy(null), "touch a");
                assertThat(d.message()).contains("the approvals socket is not believed").contains("writable by other users");
                assertThat(desk.next(Duration.ofMillis(100))).isNull();
            } finally {
                Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rwx------"));
            }
        }
        assertThatThrownBy(() -> {
            Files.setPosixFilePermissions(dir.resolve("state/shellgate"), PosixFilePermissions.fromString("rwxrwx---"));
            ApprovalDesk.open(env).close();
        }).hasMessageContaining("the state directory cannot be trusted").hasMessageContaining("writable by its group");
    }

    @Test
    void terminalsAreNotAskedUnderWrapEvenWhenAPersonIsAtHand() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        env.put("SHELLGATE_WRAPPED", "1");
        Policy p = policy(null);
        JudgeRequest request = new JudgeRequest("touch a", Dialect.BASH, project, Map.of("PATH", "/usr/bin:/bin"));
        Verdict v = Judges.create(p).judge(request);
        Person agentTyping = (ask, timeout) -> Optional.of(Answer.ONCE);
        Decision d = Reviewers.create(p, env).review(new ReviewRequest(request, v,
                new Origin(EntryPoint.PTY, 1, "", "s"), agentTyping));
        assertThat(d.runs()).isFalse();
        assertThat(d.message()).contains("the terminal is not asked (it belongs to an agent run by shellgate wrap)");
    }

    @Test
    void anExactApprovalCoversThatLineAndNothingElse() throws Exception {
        Policy p = policy("""
                [[approved]]
                id = "touch-a"
                command = "touch a"
                """);
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        assertThat(review(p, "touch a")).extracting(Decision::runs, Decision::step).containsExactly(true, Step.MEMORY);
        assertThat(review(p, "touch b").runs()).isFalse();
        assertThat(review(p, "touch a; touch b").runs()).isFalse();
    }

    @Test
    void anExactApprovalCoversTheLineAJvmToolRunsThroughAShellAndTheRefusalNamesThatLine() throws Exception {
        Policy p = policy("""
                [[approved]]
                id = "touch-a"
                command = "touch a"
                """);
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        assertThat(reviewArgv(p, List.of("/bin/bash", "-c", "touch a"))).extracting(Decision::runs, Decision::step)
                .containsExactly(true, Step.MEMORY);
        assertThat(reviewArgv(p, List.of("/bin/sh", "-lc", "touch a")).runs()).isTrue();
        // arguments after the command are its $0, $1...: not the line that was approved
        assertThat(reviewArgv(p, List.of("/bin/bash", "-c", "touch a", "x", "y")).runs()).isFalse();
        assertThat(reviewArgv(p, List.of("/bin/bash", "-o", "xtrace", "-c", "touch a")).runs()).isFalse();
        // with time to wait for a person and nobody to ask, the refusal says what to approve
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "600");
        Decision other = reviewArgv(p, List.of("/bin/bash", "-c", "touch b"));
        assertThat(other.runs()).isFalse();
        assertThat(other.message()).contains("there a person can approve \"touch b\" once (y)").doesNotContain("policy.toml");
    }

    @Test
    void anApprovalNeverCoversADeny() throws Exception {
        Policy p = policy("""
                [[approved]]
                id = "all-gone"
                command = "rm -rf /"
                """);
        Decision d = review(p, "rm -rf /");
        assertThat(d.runs()).isFalse();
        assertThat(d.step()).isEqualTo(Step.JUDGE);
    }

    @Test
    void aPrefixApprovalKeepsItsConstraintsAndCoversOnlyMatchingCommands() throws Exception {
        Policy p = policy("""
                [[approved]]
                id = "touch-here"
                prefix = ["touch"]
                max-args = 2
                args-none = ["/*", "-*"]
                """);
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        assertThat(review(p, "touch a").step()).isEqualTo(Step.MEMORY);
        assertThat(review(p, "touch a b").runs()).isTrue();
        assertThat(review(p, "touch a b c").runs()).isFalse();
        assertThat(review(p, "touch /etc/x").runs()).isFalse();
        assertThat(review(p, "touch -d yesterday a").runs()).isFalse();
        // another command on the line, or a write by redirection, is not what was approved
        assertThat(review(p, "touch a && rm b").runs()).isFalse();
        assertThat(review(p, "touch a > b").runs()).isFalse();
        assertThat(review(p, "touch a && ls").runs()).isTrue();
    }

    @Test
    void noApprovalCoversAProgramFromAnUntrustedDirectory() throws Exception {
        Path evil = Files.createDirectories(dir.resolve("evil"));
        Path touch = Files.writeString(evil.resolve("touch"), "#!/bin/sh\necho pwned\n");
        Files.setPosixFilePermissions(touch, PosixFilePermissions.fromString("rwxr-xr-x"));
        Policy p = policy("""
                [[approved]]
                id = "touch-a"
                command = "touch a"
                [[approved]]
                id = "touch-any"
                prefix = ["touch"]
                """);
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        assertThat(review(p, "touch a").runs()).isTrue();
        env.put("CMD_PATH", evil + ":/usr/bin:/bin");
        assertThat(review(p, "touch a").runs()).isFalse();
    }

    @Test
    void genericProgramsCannotBeApprovedByPrefix() {
        for (String program : List.of("bash", "sudo", "env", "python3", "eval", "xargs", "/usr/bin/bash")) {
            assertThatThrownBy(() -> policy("[[approved]]\nid = \"x\"\nprefix = [\"" + program + "\", \"-c\"]\n"))
                    .isInstanceOf(PolicyException.class)
                    .hasMessageContaining("an \"always allow\" for it would allow everything");
        }
    }

    @Test
    void expiredAndOtherProjectsApprovalsDoNotCount() throws Exception {
        Path other = Files.createDirectories(dir.resolve("other"));
        Policy p = policy("""
                [[approved]]
                id = "old"
                command = "touch a"
                expires = "2020-01-01"
                [[approved]]
                id = "there"
                command = "touch b"
                project = "%s"
                """.formatted(other));
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        assertThat(review(p, "touch a").runs()).isFalse();
        assertThat(review(p, "touch b", project, "s").runs()).isFalse();
        assertThat(review(p, "touch b", other, "s").runs()).isTrue();
    }

    @Test
    void anUntrustedProjectCannotApproveAnything() throws Exception {
        Path file = project.resolve(".shellgate/policy.toml");
        Policy p = PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.PROJECT, file.toString(), """
                version = 1
                [review]
                person-timeout-seconds = 600
                [[approved]]
                id = "sneaky"
                command = "touch a"
                """)), home.toString());
        assertThat(p.review().approvals()).isEmpty();
        assertThat(p.review().personTimeoutSeconds()).isEqualTo(120);
        assertThat(p.notices()).anyMatch(n -> n.contains("configure review or approve commands"));
    }

    /** Watches as {@code shellgate approvals --watch} does, and answers the first ask that comes. */
    private Thread answerer(Answer answer, AtomicReference<String> answered) throws Exception {
        ApprovalDesk desk = ApprovalDesk.open(env);
        return Thread.ofVirtual().start(() -> {
            try (desk) {
                ApprovalDesk.Asked asked = desk.next(Duration.ofSeconds(20));
                answered.set(asked.answer(answer, "the test") ? asked.waiting().id() : "not taken");
                // the same ask cannot be answered twice
                if (asked.answer(Answer.ONCE, "again")) {
                    answered.set("answered twice");
                }
            } catch (Exception e) {
                answered.set("failed: " + e);
            }
        });
    }

    @Test
    void aPersonsOnceAnswerRunsItOnceAndTheAnswerCannotBeReplayed() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
        Policy p = policy(null);
        AtomicReference<String> answered = new AtomicReference<>();
        Thread t = answerer(Answer.ONCE, answered);
        Decision d = review(p, "touch a");
        t.join();
        assertThat(d).extracting(Decision::runs, Decision::step).containsExactly(true, Step.PERSON);
        assertThat(answered.get()).matches("[0-9a-f-]{36}");
        assertThat(d.message()).isEqualTo("approved once by a person through shellgate approvals");
        // the next ask of the same line is asked afresh: nobody watches now
        assertThat(review(p, "touch a").message()).contains("nobody can answer");
    }

    @Test
    void aRefusalIsARefusal() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
        AtomicReference<String> answered = new AtomicReference<>();
        Thread t = answerer(Answer.REFUSE, answered);
        Decision d = review(policy(null), "touch a");
        t.join();
        assertThat(d).extracting(Decision::runs, Decision::step).containsExactly(false, Step.PERSON);
    }

    @Test
    void aSessionAnswerStopsAskingForThatCommandInThatSessionOnly() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
        Policy p = policy(null);
        Reviewer reviewer = Reviewers.create(p, env);
        AtomicReference<String> answered = new AtomicReference<>();
        Thread t = answerer(Answer.SESSION, answered);
        assertThat(review(p, reviewer, "touch session-a", project, "session-1").step()).isEqualTo(Step.PERSON);
        t.join();
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        reviewer = Reviewers.create(p, env);
        assertThat(review(p, reviewer, "touch session-a", project, "session-1").step()).isEqualTo(Step.MEMORY);
        assertThat(review(p, reviewer, "touch session-b", project, "session-1").runs()).isFalse();
        assertThat(review(p, reviewer, "touch session-a", project, "session-2").runs()).isFalse();
    }

    @Test
    void aProjectAnswerIsWrittenToTheUserPolicyForThisProject() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
        AtomicReference<String> answered = new AtomicReference<>();
        Thread t = answerer(Answer.PROJECT, answered);
        Decision d = review(policy(null), "touch p", project.resolve(".git"), "s");
        t.join();
        assertThat(d.runs()).isTrue();
        assertThat(d.message()).contains("remembered as approved-");
        String text = Files.readString(userPolicy);
        assertThat(text).contains("command = \"touch p\"").contains("project = \"" + project + "\"");
        Policy reloaded = PolicyLoader.load(List.of(PolicyLoader.builtIn(),
                new PolicySource(Layer.USER, userPolicy.toString(), text)), home.toString());
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        assertThat(review(reloaded, "touch p", project, "other").step()).isEqualTo(Step.MEMORY);
        assertThat(review(reloaded, "touch p", dir, "other").runs()).isFalse();
        assertThat(audit()).anyMatch(n -> n.path("step").asText().equals("person") && n.path("tier").asText()
                .equals(Tier.ASK.id()));
    }

    @Test
    void aProjectAnswerKeepsPathsInTheProjectAsFullPathsAndExpiresAfterRememberDays() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
        Path docs = Files.createDirectories(project.resolve("docs"));
        Files.writeString(docs.resolve("notes.txt"), "x");
        Files.createDirectories(userPolicy.getParent());
        Files.writeString(userPolicy, "version = 1\n[review]\nremember-days = 7\n");
        Policy p = PolicyLoader.load(List.of(PolicyLoader.builtIn(), PolicyLoader.read(Layer.USER, userPolicy)), home.toString());
        assertThat(p.review().rememberDays()).isEqualTo(7);
        AtomicReference<String> answered = new AtomicReference<>();
        Thread t = answerer(Answer.PROJECT, answered);
        java.time.Instant before = java.time.Instant.now();
        Decision d = review(p, "touch notes.txt", docs, "s");
        t.join();
        assertThat(d.runs()).isTrue();
        assertThat(d.message()).contains("(touch " + docs.resolve("notes.txt") + ", in " + project + " and below, until ");
        String text = Files.readString(userPolicy);
        assertThat(text).contains("command = \"touch " + docs.resolve("notes.txt") + "\"");
        Policy reloaded = PolicyLoader.load(List.of(PolicyLoader.builtIn(), PolicyLoader.read(Layer.USER, userPolicy)),
                home.toString());
        java.time.Instant expires = reloaded.review().approvals().getFirst().expires();
        assertThat(expires).isBetween(before.plus(Duration.ofDays(7)).minusSeconds(1), before.plus(Duration.ofDays(7)).plusSeconds(120));
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        // the same file named from another folder of the project, relatively or in full
        assertThat(review(reloaded, "touch docs/notes.txt", project, "other").step()).isEqualTo(Step.MEMORY);
        assertThat(review(reloaded, "touch ./notes.txt", docs, "other").step()).isEqualTo(Step.MEMORY);
        assertThat(review(reloaded, "touch " + docs.resolve("notes.txt"), project, "other").step()).isEqualTo(Step.MEMORY);
        // not another file, not the same words where they name something else, not quoted, not outside the project
        assertThat(review(reloaded, "touch notes.txt", project, "other").runs()).isFalse();
        assertThat(review(reloaded, "touch 'notes.txt'", docs, "other").runs()).isFalse();
        assertThat(review(reloaded, "touch " + docs.resolve("notes.txt"), dir, "other").runs()).isFalse();
    }

    @Test
    void aSessionAnswerCoversTheSameFileNamedFromAnotherFolderOfTheProject() throws Exception {
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "20");
        Path src = Files.createDirectories(project.resolve("src"));
        Files.writeString(src.resolve("main.c"), "x");
        Policy p = policy(null);
        Reviewer reviewer = Reviewers.create(p, env);
        AtomicReference<String> answered = new AtomicReference<>();
        Thread t = answerer(Answer.SESSION, answered);
        assertThat(review(p, reviewer, "touch main.c", src, "session-n").step()).isEqualTo(Step.PERSON);
        t.join();
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0");
        reviewer = Reviewers.create(p, env);
        assertThat(review(p, reviewer, "touch src/main.c", project, "session-n").step()).isEqualTo(Step.MEMORY);
        assertThat(review(p, reviewer, "touch main.c", project, "session-n").runs()).isFalse();
        assertThat(review(p, reviewer, "touch src/main.c", project, "session-m").runs()).isFalse();
    }

    @Test
    void aSessionAnswerToAStartTheJavaagentSawRemembersTheLineItsShellRuns() throws Exception {
        assertThat(io.shellgate.reviewer.internal.ApprovalMatcher.remembered(new JudgeRequest(null, Dialect.BASH, project,
                Map.of(), null, false, List.of("/bin/bash", "-c", "touch a")), project)).isEqualTo("touch a");
    }
}
