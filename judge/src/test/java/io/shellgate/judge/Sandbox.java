package io.shellgate.judge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** The fixed environment the own corpus runs in: a home with secrets and a project with a .env. */
final class Sandbox {

    final Path home;
    final Path project;
    final Map<String, String> env;

    Sandbox(Path root) {
        try {
            home = root.resolve("home");
            project = home.resolve("project");
            Files.createDirectories(home.resolve(".ssh"));
            Files.writeString(home.resolve(".ssh/id_rsa"), "-----BEGIN OPENSSH PRIVATE KEY-----\n");
            Files.createDirectories(home.resolve(".aws"));
            Files.writeString(home.resolve(".aws/credentials"), "[default]\n");
            Files.writeString(home.resolve("notes.txt"), "notes\n");
            Files.createDirectories(project.resolve("src"));
            Files.createDirectories(project.resolve(".git"));
            // objects and refs make it a repository to git itself (an empty one, on an unborn branch)
            Files.createDirectories(project.resolve(".git/objects"));
            Files.createDirectories(project.resolve(".git/refs"));
            Files.writeString(project.resolve(".git/HEAD"), "ref: refs/heads/main\n");
            Files.writeString(project.resolve(".git/config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n");
            Files.writeString(project.resolve("src/main.c"), "int main() {}\n");
            Files.writeString(project.resolve("README.md"), "# readme\n");
            Files.writeString(project.resolve(".env"), "TOKEN=secret\n");
            Files.createSymbolicLink(project.resolve("link.txt"), home.resolve(".ssh/id_rsa"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        env = Map.of("HOME", home.toString(), "PATH", "/usr/local/bin:/usr/bin:/bin", "USER", "user", "EDITOR", "vi",
                "TOKEN", "abc", "LANG", "C.UTF-8");
    }

    JudgeRequest request(String command) {
        return request(command, Dialect.BASH);
    }

    JudgeRequest request(String command, Dialect dialect) {
        return new JudgeRequest(command, dialect, project, env);
    }
}
