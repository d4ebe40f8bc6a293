package io.shellgate.reviewer.internal.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.Reviewers;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.Layer;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The LLM step inside the whole pipeline, against a real server on loopback speaking OpenAI's protocol. */
class PipelineLlmTest {

    @TempDir
    Path dir;

    private Decision review(FakeLlmServer server, String command, String llmTable, Map<String, String> extraEnv) throws Exception {
        Policy policy = PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, dir + "/policy.toml",
                "version = 1\n[review.llm]\nprovider = \"openai\"\nmodel = \"m\"\nbase-url = \"" + server.baseUrl() + "\"\n"
                        + llmTable)), dir.toString());
        Map<String, String> env = new HashMap<>(Map.of("HOME", dir.toString(), "XDG_STATE_HOME", dir + "/state",
                "SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0", "SHELLGATE_LLM_API_KEY", "k-test"));
        env.putAll(extraEnv);
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, dir, Map.of("PATH", "/usr/bin:/bin", "HOME", dir.toString()));
        Verdict v = Judges.create(policy).judge(request);
        return Reviewers.create(policy, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.SHELL_C, 1, "", ""), null));
    }

    private static String reply(String decision, String risk) {
        return "{\"decision\":\"" + decision + "\",\"risk\":\"" + risk + "\",\"reason\":\"creates an empty file\"}";
    }

    @Test
    void anApprovalCountsOnlyWhenApprovalByLlmIsOn() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).replying(reply("approve", "low"))) {
            Decision off = review(server, "touch a", "", Map.of());
            assertThat(off.runs()).isFalse();
            assertThat(off.step()).isEqualTo(Step.TIMEOUT);
            Decision on = review(server, "touch a", "may-approve = true\n", Map.of());
            assertThat(on).extracting(Decision::runs, Decision::step).containsExactly(true, Step.LLM);
            assertThat(on.message()).contains("creates an empty file");
            // the environment beats the file
            Decision envOff = review(server, "touch a", "may-approve = true\n", Map.of("SHELLGATE_LLM_MAY_APPROVE", "false"));
            assertThat(envOff.runs()).isFalse();
            assertThat(server.requests()).hasSize(3);
        }
    }

    @Test
    void anLlmTheUserConfiguredDoesNotLiftAManagedAskButOneTheManagedFileLetsApproveDoes() throws Exception {
        String managedAsk = "[[rule]]\nid = \"ask-touch\"\ntier = \"ask\"\nreason = \"files are reviewed\"\n"
                + "command = [\"touch\"]\nmatch = [\"touch a\"]\n";
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).replying(reply("approve", "low"))) {
            Decision users = reviewUnder(managedAsk, server, "touch a");
            assertThat(users).extracting(Decision::runs, Decision::step).containsExactly(false, Step.TIMEOUT);
            Decision managed = reviewUnder(managedAsk + "\n[review.llm]\nmay-approve = true\n", server, "touch a");
            assertThat(managed).extracting(Decision::runs, Decision::step).containsExactly(true, Step.LLM);
        }
    }

    /** As {@link #review}, with {@code managed} as the administrator's layer and the user's LLM allowed to approve. */
    private Decision reviewUnder(String managed, FakeLlmServer server, String command) throws Exception {
        Policy policy = PolicyLoader.load(List.of(PolicyLoader.builtIn(),
                new PolicySource(Layer.MANAGED, "/etc/shellgate/policy.toml", managed),
                new PolicySource(Layer.USER, dir + "/policy.toml", "version = 1\n[review.llm]\nprovider = \"openai\"\n"
                        + "model = \"m\"\nbase-url = \"" + server.baseUrl() + "\"\nmay-approve = true\n")), dir.toString());
        Map<String, String> env = Map.of("HOME", dir.toString(), "XDG_STATE_HOME", dir + "/state",
                "SHELLGATE_REVIEW_TIMEOUT_SECONDS", "0", "SHELLGATE_LLM_API_KEY", "k-test");
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, dir, Map.of("PATH", "/usr/bin:/bin", "HOME", dir.toString()));
        Verdict v = Judges.create(policy).judge(request);
        return Reviewers.create(policy, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.SHELL_C, 1, "", ""), null));
    }

    @Test
    void aRiskyApprovalIsLeftToAPerson() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).replying(reply("approve", "medium"))) {
            Decision d = review(server, "touch a", "may-approve = true\n", Map.of());
            assertThat(d.step()).isEqualTo(Step.TIMEOUT);
        }
    }

    @Test
    void aRefusalDecides() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).replying(reply("refuse", "high"))) {
            Decision d = review(server, "touch a", "may-approve = true\n", Map.of());
            assertThat(d).extracting(Decision::runs, Decision::step).containsExactly(false, Step.LLM);
        }
    }

    @Test
    void aDenyNeverReachesTheLlmWhateverItWouldSay() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).replying(reply("approve", "low"))) {
            Decision d = review(server, "rm -rf ~", "may-approve = true\n", Map.of());
            assertThat(d).extracting(Decision::runs, Decision::step).containsExactly(false, Step.JUDGE);
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void aBrokenConfigurationIsSaidWithTheRefusal() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).replying(reply("approve", "low"))) {
            Decision d = review(server, "touch a", "may-approve = true\n", Map.of("SHELLGATE_LLM_PROVIDER", "openia"));
            assertThat(d).extracting(Decision::runs, Decision::step).containsExactly(false, Step.TIMEOUT);
            assertThat(d.message()).contains("the LLM reviewer is not used").contains("openia");
            assertThat(server.requests()).isEmpty();
        }
    }

    @Test
    void aBrokenServerLeavesTheAskToAPerson() throws Exception {
        try (FakeLlmServer server = new FakeLlmServer(Provider.OPENAI).failing(500)) {
            Decision d = review(server, "touch a", "may-approve = true\n", Map.of());
            assertThat(d).extracting(Decision::runs, Decision::step).containsExactly(false, Step.TIMEOUT);
        }
    }
}
