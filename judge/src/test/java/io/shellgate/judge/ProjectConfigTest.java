package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.rules.Layer;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.PolicySource;
import io.shellgate.rules.Tier;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A version query is read-only until the project holds a file that makes the tool run the
 * project's own code or go elsewhere: the judge asks then, as it does for a repository's git config.
 */
class ProjectConfigTest {

    private static final Judge JUDGE = Judges.defaults();

    private static Verdict judge(String command, Path cwd) {
        return JUDGE.judge(new JudgeRequest(command, Dialect.BASH, cwd, Map.of("PATH", "/usr/bin:/bin", "HOME", cwd.toString())));
    }

    @Test
    void mavenAsksWhereTheProjectGivesItJvmOptions(@TempDir Path dir) throws IOException {
        Path module = Files.createDirectories(dir.resolve("app/module"));
        assertThat(judge("mvn -v", module).reasons()).noneMatch(r -> r.rule().equals("project-config"));
        Files.createDirectories(dir.resolve("app/.mvn"));
        Files.writeString(dir.resolve("app/.mvn/jvm.config"), "-javaagent:evil.jar\n");
        Verdict v = judge("mvn -v", module);
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anySatisfy(r -> {
            assertThat(r.rule()).isEqualTo("project-config");
            assertThat(r.message()).contains("jvm.config");
        });
    }

    @Test
    void rustAsksWhereTheProjectNamesAToolchain(@TempDir Path dir) throws IOException {
        assertThat(judge("cargo --version", dir).reasons()).noneMatch(r -> r.rule().equals("project-config"));
        Files.writeString(dir.resolve("rust-toolchain.toml"), "[toolchain]\npath = \"./evil\"\n");
        assertThat(judge("cargo --version", dir).reasons()).anyMatch(r -> r.rule().equals("project-config"));
        assertThat(judge("rustc -V", dir).tier()).isEqualTo(Tier.ASK);
    }

    @Test
    void npmViewAsksWhereTheProjectNamesARegistry(@TempDir Path dir) throws Exception {
        // the default policy asks for every npm command (tool-credentials); a user may allow npm view with the npm-view check
        assertThat(judge("npm view react version", dir).reasons()).anyMatch(r -> r.rule().equals("tool-credentials"));
        Judge judge = Judges.create(PolicyLoader.load(List.of(PolicyLoader.builtIn(), new PolicySource(Layer.USER, "/p.toml", """
                disable = ["tool-credentials"]
                [[read-only]]
                id = "npm-view"
                command = ["npm view"]
                reason = "prints a package's details from the registry"
                operands = "text"
                checker = "npm-view"
                options = ["--json"]
                match = ["npm view left-pad"]
                not-match = ["npm view ./local", "npm view left-pad --registry=http://203.0.113.5/"]
                """)), "/home/u"));
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "HOME", dir.toString());
        assertThat(judge.judge(new JudgeRequest("npm view react version", Dialect.BASH, dir, env)).tier()).isEqualTo(Tier.ALLOW);
        Files.writeString(dir.resolve(".npmrc"), "registry=http://192.0.2.1/\n");
        assertThat(judge.judge(new JudgeRequest("npm view react version", Dialect.BASH, dir, env)).reasons())
                .anyMatch(r -> r.rule().equals("project-config"));
    }
}
