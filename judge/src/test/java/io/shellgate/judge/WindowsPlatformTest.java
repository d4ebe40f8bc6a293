package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * PowerShell's aliases follow the shell that runs the line: on Windows (an environment with
 * {@code PATHEXT}, or {@code ;} between {@code PATH} entries) {@code sort}, {@code diff},
 * {@code write} and {@code ls} are cmdlets; on Linux and macOS pwsh leaves them to the system's
 * programs. The policy's deny rules hold for either meaning.
 */
class WindowsPlatformTest {

    private static Path root;
    private static Sandbox sandbox;
    private static final Judge JUDGE = Judges.defaults();

    @BeforeAll
    static void setUp() throws Exception {
        root = Files.createTempDirectory("shellgate-platform");
        sandbox = new Sandbox(root);
    }

    @AfterAll
    static void tearDown() throws Exception {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private static Tier judge(String command, boolean windows) {
        Map<String, String> env = new HashMap<>(sandbox.env);
        if (windows) {
            env.put("PATHEXT", ".COM;.EXE;.BAT;.CMD");
            env.put("PATH", "C:\\Windows\\System32;C:\\Windows");
        }
        return JUDGE.judge(new JudgeRequest(command, Dialect.POWERSHELL, sandbox.project, env)).tier();
    }

    @ParameterizedTest(name = "{0}: Windows {1}, Unix {2}")
    @CsvSource(delimiterString = "=>", quoteCharacter = '"', textBlock = """
            sort ~/.ssh/id_rsa                    => ALLOW => ASK
            diff ~/.ssh/id_rsa README.md          => ALLOW => ASK
            write root pwned                      => ALLOW => ASK
            'x' | sort --output=pwned.txt         => ALLOW => ASK
            cat README.md                         => ALLOW => ALLOW
            ls                                    => ALLOW => ALLOW
            rm -r -fo C:\\Windows                 => DENY  => DENY
            del -Recurse -Force ~                 => DENY  => DENY
            help Get-ChildItem -Online            => ASK   => ASK
            kill 1                                => ASK   => ASK
            """)
    void namesMeanWhatTheShellThatRunsTheLineMakesOfThem(String command, Tier windows, Tier unix) {
        assertThat(judge(command, true)).as("on Windows").isEqualTo(windows);
        assertThat(judge(command, false)).as("on Linux and macOS").isEqualTo(unix);
    }
}
