package io.shellgate.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A JVM with the agent (Java 17 and 25, both judges) cannot change shellgate's own files with
 * plain file calls, nine ways (java.io streams, RandomAccessFile, NIO streams and channels,
 * Files.write, a move or a copy over the file, File.renameTo, File.delete), whether it names them directly, relatively or
 * through a link; its other files it writes as before, and the gate in it still logs.
 */
class JavaAgentFilesTest {

    private static final int WAYS = 9;

    @TempDir
    Path dir;

    private Sandbox box;

    static Stream<AgentJvm> jvms() throws Exception {
        return Stream.of(AgentJvm.of(17, "server"), AgentJvm.of(25, "in-process"), AgentJvm.of(25, "server"));
    }

    @BeforeEach
    void sandbox() throws Exception {
        box = new Sandbox(dir);
    }

    @AfterEach
    void stopServers() throws Exception {
        box.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jvms")
    void aJvmsFileCallsCannotChangeTheGatesFiles(AgentJvm jvm) throws Exception {
        Path policy = Files.createDirectories(box.home.resolve(".config/shellgate")).resolve("policy.toml");
        Files.writeString(policy, "version = 1\n");
        Path state = Files.createDirectories(box.home.resolve(".local/state/shellgate"));
        Path project = Files.createDirectories(box.work.resolve(".shellgate")).resolve("policy.toml");
        Files.createSymbolicLink(box.work.resolve("conf"), box.home.resolve(".config"));
        Path ok = box.work.resolve("ok.txt");
        List<String> gate = List.of(policy.toString(), "conf/shellgate/policy.toml", state.resolve("audit.jsonl").toString(),
                state.resolve("planted").toString(), box.run.resolve("server.token").toString(), project.toString(),
                box.home.resolve(".config/shellgate/../shellgate/new.toml").toString());
        List<String> args = new ArrayList<>(List.of("write-files", ok.toString()));
        args.addAll(gate);
        Processes.Result r = jvm.run(box, "", args.toArray(new String[0]));
        assertThat(r.code()).as(r.toString()).isZero();
        assertThat(r.out().lines().filter(l -> l.startsWith("WROTE "))).as(r.toString()).hasSize(WAYS)
                .allMatch(l -> l.startsWith("WROTE " + ok + " via "));
        assertThat(r.out().lines().filter(l -> l.startsWith("KEPT "))).as(r.toString()).hasSize(WAYS * gate.size());
        assertThat(r.out()).as(r.toString()).contains("shellgate: refused (gate-file)").contains("shellgate approvals --watch");
        assertThat(Files.readString(policy)).isEqualTo("version = 1\n");
        assertThat(project).doesNotExist();
        assertThat(state.resolve("planted")).doesNotExist();
        assertThat(box.home.resolve(".config/shellgate/new.toml")).doesNotExist();
        // the gate in the JVM (or its server) judged and logged the process started after the writes
        assertThat(r.out()).as(r.toString()).contains("RAN exit=0 out=after");
        assertThat(box.shellgate("log", "--json").out().lines().toList().getLast()).contains("echo after")
                .contains("\"entry\":\"javaagent\"");
    }
}
