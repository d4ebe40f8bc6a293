package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Layer;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import io.shellgate.rules.Tier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
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
 * programs. The policy's deny rules hold for either meaning. Windows' own programs ({@code sort.exe},
 * {@code expand.exe}, {@code find.exe}) are judged by what they do on Windows, never as the Unix
 * programs of the same names.
 */
class WindowsPlatformTest {

    private static Path root;
    private static Path system32;
    private static Sandbox sandbox;
    private static Judge policyJudge;

    /**
     * The stand-in System32 is a trusted directory because the policy lists it, not because of where
     * the checkout or the temporary directory happens to be (under a home, under /tmp, owned by whom).
     */
    @BeforeAll
    static void setUp() throws Exception {
        root = Files.createTempDirectory("shellgate platform");
        sandbox = new Sandbox(root);
        system32 = Files.createDirectories(root.resolve("windows/System32"));
        for (String name : new String[] {"sort.exe", "find.exe", "expand.exe", "fc.exe", "whoami.exe", "timeout.exe"}) {
            Files.createFile(system32.resolve(name));
        }
        policyJudge = Judges.create(PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, "/u.toml",
                "[settings]\ntrusted-dirs = ['" + system32 + "']\n")), null));
    }

    @AfterAll
    static void tearDown() throws Exception {
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /** A Windows environment whose PATH holds a folder with Windows' own programs (empty files named as they are). */
    private static Map<String, String> windowsWithSystemPrograms() {
        Map<String, String> env = new HashMap<>(sandbox.env);
        env.put("PATHEXT", ".COM;.EXE;.BAT;.CMD");
        env.put("PATH", system32 + ";" + root.resolve("Windows"));
        return env;
    }

    @ParameterizedTest(name = "{1}: {0} => {2}")
    @CsvSource(delimiterString = "=>", quoteCharacter = '|', textBlock = """
            sort README.md                          => CMD        => ALLOW
            sort /r /+2 /rec 100 README.md          => CMD        => ALLOW
            sort /o out.txt README.md               => CMD        => ASK
            sort README.md /OUTPUT out.txt          => CMD        => ASK
            sort /t C:\\tmp README.md             => CMD        => ASK
            sort /q README.md                       => CMD        => ASK
            sort .env                               => CMD        => ASK
            expand a.cab out                        => CMD        => ASK
            fc README.md README.md                  => CMD        => ASK
            timeout /t 5                            => CMD        => ASK
            find "x" README.md                      => CMD        => ALLOW
            find /v "" .env                         => CMD        => ASK
            find /x "a" README.md                   => CMD        => ASK
            whoami /all                             => CMD        => ALLOW
            sort.exe README.md                      => POWERSHELL => ALLOW
            sort.exe /o out.txt README.md           => POWERSHELL => ASK
            gc README.md | sort.exe /output x       => POWERSHELL => ASK
            expand.exe a.cab out                    => POWERSHELL => ASK
            find.exe "x" README.md                  => POWERSHELL => ALLOW
            find.exe "x" .env                       => POWERSHELL => ASK
            """)
    void windowsOwnProgramsAreJudgedAsWindowsRunsThemNotAsTheirUnixNamesakes(String command, Dialect dialect, Tier expected)
            throws Exception {
        Verdict v = policyJudge.judge(new JudgeRequest(command, dialect, sandbox.project, windowsWithSystemPrograms()));
        assertThat(v.tier()).as("%s", v.reasons()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = "=>", textBlock = """
            findstr x README.md     => findstr.exe
            sort README.md          => sort.exe
            tree                    => tree.com
            """)
    void aWindowsProgramPlantedInTheWorkingDirectoryIsNotTakenForSystem32s(String command, String planted) throws Exception {
        Path project = Files.createDirectories(root.resolve("windows/project"));
        Files.writeString(project.resolve("README.md"), "# readme\n");
        Path program = project.resolve(planted);
        Files.writeString(program, "");
        try {
            Verdict v = policyJudge.judge(new JudgeRequest(command, Dialect.CMD, project, sandbox.env));
            assertThat(v.tier()).as("%s", v.reasons()).isEqualTo(Tier.ASK);
            assertThat(v.reasons()).anySatisfy(r -> assertThat(r.rule()).isEqualTo("untrusted-program"));
            Files.delete(program);
            assertThat(policyJudge.judge(new JudgeRequest(command, Dialect.CMD, project, sandbox.env)).tier()).isEqualTo(Tier.ALLOW);
        } finally {
            Files.deleteIfExists(program);
        }
    }

    private static Tier judge(String command, boolean windows) {
        Map<String, String> env = new HashMap<>(sandbox.env);
        if (windows) {
            env.put("PATHEXT", ".COM;.EXE;.BAT;.CMD");
            env.put("PATH", "C:\\Windows\\System32;C:\\Windows");
        }
        return policyJudge.judge(new JudgeRequest(command, Dialect.POWERSHELL, sandbox.project, env)).tier();
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
