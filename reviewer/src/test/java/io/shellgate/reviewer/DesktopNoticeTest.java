package io.shellgate.reviewer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shellgate.judge.Dialect;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.reviewer.model.Answer;
import io.shellgate.reviewer.model.Decision;
import io.shellgate.reviewer.model.EntryPoint;
import io.shellgate.reviewer.model.Origin;
import io.shellgate.reviewer.model.ReviewRequest;
import io.shellgate.reviewer.model.Step;
import io.shellgate.rules.Policy;
import io.shellgate.rules.PolicyLoader;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A desktop notice tells a person that an ask waits, when nobody watches and no terminal may be
 * asked; the answer still comes only through {@code shellgate approvals --watch}. Against a real
 * session bus ({@code dbus-daemon}) with a stand-in notification server ({@code
 * notification-server.py}, python3-dbus), reached by {@code gdbus} as on a desktop.
 */
class DesktopNoticeTest {

    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static Path busDir;
    private static Process bus;
    private static Process server;
    private static String address;
    private static Path notices;

    @TempDir
    Path dir;

    private final Map<String, String> env = new HashMap<>();
    private Path home;
    private Path project;

    @BeforeAll
    static void startBusAndServer() throws Exception {
        List<String> missing = new ArrayList<>();
        for (String tool : List.of("/usr/bin/dbus-daemon", "/usr/bin/gdbus")) {
            if (!Files.isExecutable(Path.of(tool))) {
                missing.add(tool);
            }
        }
        if (!Files.isExecutable(PYTHON) || new ProcessBuilder(PYTHON.toString(), "-c", "import dbus, dbus.service, gi")
                .redirectErrorStream(true).start().waitFor() != 0) {
            missing.add("python3 with dbus and gi (python3-dbus, python3-gi)");
        }
        if (!missing.isEmpty()) {
            if (System.getenv("CI") != null) {
                fail("missing for the desktop notice tests (.ci/run installs them): " + missing);
            }
            Assumptions.abort("not on this machine: " + missing);
        }
        busDir = Files.createTempDirectory("sg-bus");
        bus = new ProcessBuilder("/usr/bin/dbus-daemon", "--session", "--nofork", "--print-address=1",
                "--address=unix:path=" + busDir.resolve("bus")).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        address = new BufferedReader(new InputStreamReader(bus.getInputStream(), StandardCharsets.UTF_8)).readLine();
        assertThat(address).as("the bus's address").startsWith("unix:");
        notices = busDir.resolve("notices.jsonl");
        Path script = busDir.resolve("notification-server.py");
        try (var in = DesktopNoticeTest.class.getResourceAsStream("/notification-server.py")) {
            Files.write(script, in.readAllBytes());
        }
        ProcessBuilder pb = new ProcessBuilder(PYTHON.toString(), script.toString(), notices.toString())
                .redirectErrorStream(true).redirectOutput(busDir.resolve("server.log").toFile());
        pb.environment().put("DBUS_SESSION_BUS_ADDRESS", address);
        server = pb.start();
        Path ready = Path.of(notices + ".ready");
        for (int i = 0; i < 600 && !Files.exists(ready); i++) {
            assertThat(server.isAlive()).as("the notification server: %s", log()).isTrue();
            Thread.sleep(50);
        }
        assertThat(ready).as("the notification server took its name: %s", log()).exists();
    }

    private static String log() {
        try {
            return Files.readString(busDir.resolve("server.log"));
        } catch (Exception e) {
            return "";
        }
    }

    @AfterAll
    static void stop() throws Exception {
        for (Process p : new Process[] {server, bus}) {
            if (p != null) {
                p.destroy();
                p.waitFor();
            }
        }
        if (busDir != null) {
            try (var walk = Files.walk(busDir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectories(dir.resolve("home"));
        project = Files.createDirectories(dir.resolve("project"));
        env.put("HOME", home.toString());
        env.put("XDG_STATE_HOME", dir.resolve("state").toString());
        env.put("SHELLGATE_REVIEW_TIMEOUT_SECONDS", "60");
        env.put("DBUS_SESSION_BUS_ADDRESS", address);
        Files.deleteIfExists(notices);
    }

    private Decision review(String command) throws Exception {
        Policy p = PolicyLoader.load(List.of(PolicyLoader.builtIn()), home.toString());
        JudgeRequest request = new JudgeRequest(command, Dialect.BASH, project, Map.of("PATH", "/usr/bin:/bin", "HOME",
                home.toString()));
        Verdict v = Judges.create(p).judge(request);
        return Reviewers.create(p, env).review(new ReviewRequest(request, v, new Origin(EntryPoint.SHELL_C, 42, "", "s1"),
                null));
    }

    private static List<JsonNode> shown() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        if (Files.exists(notices)) {
            ObjectMapper json = new ObjectMapper();
            for (String line : Files.readAllLines(notices)) {
                out.add(json.readTree(line));
            }
        }
        return out;
    }

    @Test
    void aNoticeLetsAPersonStartWatchingAndAnswer() throws Exception {
        ExecutorService person = Executors.newSingleThreadExecutor();
        try {
            // the person sees the notice, then starts shellgate approvals --watch and says yes
            Future<String> answered = person.submit(() -> {
                while (shown().isEmpty()) {
                    Thread.sleep(50);
                }
                try (ApprovalDesk desk = ApprovalDesk.open(env)) {
                    ApprovalDesk.Asked asked = desk.next(Duration.ofSeconds(30));
                    asked.answer(Answer.ONCE, "a person");
                    return asked.waiting().command();
                }
            });
            Decision d = review("touch a");
            assertThat(d.runs()).as(d.message()).isTrue();
            assertThat(d.step()).isEqualTo(Step.PERSON);
            assertThat(answered.get()).isEqualTo("touch a");
        } finally {
            person.shutdownNow();
        }
        List<JsonNode> shown = shown();
        assertThat(shown).hasSize(1);
        assertThat(shown.getFirst().path("app").asText()).isEqualTo("shellgate");
        assertThat(shown.getFirst().path("summary").asText()).isEqualTo("shellgate: a command waits for approval");
        assertThat(shown.getFirst().path("body").asText()).startsWith("touch a\n").contains("shellgate approvals --watch");
        assertThat(shown.getFirst().path("actions")).as("no buttons: any program of the user could press them").isEmpty();
    }

    @Test
    void nobodyStartingToWatchIsARefusalThatSaysSo() throws Exception {
        env.put("SHELLGATE_DESKTOP_NOTICE_WAIT_SECONDS", "1");
        Decision d = review("touch b");
        assertThat(d.runs()).isFalse();
        assertThat(d.message()).contains("nobody started shellgate approvals --watch within 1 s of the desktop notice");
        assertThat(shown()).hasSize(1);
    }

    @Test
    void theCommandIsShownAsTextNotMarkup() throws Exception {
        env.put("SHELLGATE_DESKTOP_NOTICE_WAIT_SECONDS", "1");
        review("touch '<a href=\"http://203.0.113.5/\">approve</a>' & echo \"\\q\"");
        String body = shown().getFirst().path("body").asText();
        assertThat(body).startsWith("touch &#39;&lt;a href=&quot;http://203.0.113.5/&quot;&gt;approve&lt;/a&gt;&#39; &amp; echo &quot;\\q&quot;\n");
        assertThat(body).doesNotContain("<a");
    }

    @Test
    void turnedOffOrWithoutANotificationServerNobodyIsToldAndTheAskIsRefusedAtOnce() throws Exception {
        env.put("SHELLGATE_DESKTOP_NOTICES", "off");
        Decision off = review("touch c");
        assertThat(off.runs()).isFalse();
        assertThat(off.message()).contains("no terminal").doesNotContain("desktop notice");
        env.remove("SHELLGATE_DESKTOP_NOTICES");
        env.put("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + dir.resolve("no-bus"));
        Decision noServer = review("touch d");
        assertThat(noServer.runs()).isFalse();
        assertThat(noServer.message()).doesNotContain("desktop notice");
        assertThat(shown()).isEmpty();
    }
}
