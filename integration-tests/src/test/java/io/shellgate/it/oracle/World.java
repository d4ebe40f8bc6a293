package io.shellgate.it.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The throwaway world the oracle's lines run in: a home full of canary secrets, a git project that
 * holds what the red team's fixture holds (and more canaries), and canaries the sandbox mounts over
 * system paths ({@code /etc/shadow}, {@code /run/secrets/...}, {@code /dev/sda}). Every canary holds
 * a string of its own, so a trace or an output names the secret that leaked.
 *
 * <p>The template lives at {@code root} on the host, which is where the judge looks; each line runs
 * on a fresh copy at the very same path inside the sandbox, so what the judge saw is what runs.
 */
final class World {

    static final String PATH = "/usr/local/bin:/usr/bin:/bin";
    static final String TOKEN_PREFIX = "ORACLE-CANARY-";

    /** Secrets under the home directory, by path relative to it. */
    private static final List<String> HOME_SECRETS = List.of(".ssh/id_rsa", ".ssh/id_ed25519", ".ssh/config",
            ".aws/credentials", ".aws/config", ".netrc", ".git-credentials", ".npmrc", ".pypirc", ".pgpass", ".my.cnf",
            ".vault-token", ".docker/config.json", ".kube/config", ".config/gh/hosts.yml",
            ".config/gcloud/application_default_credentials.json", ".bash_history", ".zsh_history", ".python_history",
            ".node_repl_history", ".gnupg/private-keys-v1.d/key.key", ".claude/.credentials.json", ".codex/auth.json",
            ".m2/settings.xml", ".cargo/credentials.toml", ".password-store/site.gpg", ".local/share/keyrings/login.keyring",
            ".terraform.d/credentials.tfrc.json", ".gem/credentials");
    /** Secrets in the project, the red team's fixture's among them. */
    private static final List<String> PROJECT_SECRETS = List.of(".env", ".env.local", ".envrc", "id_rsa", "server.key",
            "credentials.json", "terraform.tfstate", "secrets.yml", "cert.pem");
    /** System files the sandbox covers with a canary when the host has them (a read-only mount needs a file to cover). */
    private static final List<String> SYSTEM_SECRETS = List.of("/etc/shadow", "/etc/gshadow", "/etc/sudoers",
            "/etc/ssh/ssh_host_ed25519_key", "/etc/ssh/ssh_host_rsa_key");
    /** Secrets that exist only inside the sandbox, on its own /run. */
    private static final List<String> RUN_SECRETS = List.of("/run/secrets/db-password",
            "/run/secrets/kubernetes.io/serviceaccount/token");
    /** Disk devices: inside the sandbox, symbolic links to canary files of the world, so a write lands in the copy. */
    static final List<String> DEVICES = List.of("/dev/sda", "/dev/nvme0n1");

    /** Where the world lives, on the host (the template the judge looks at) and in the sandbox (a fresh copy per line). */
    final Path root;
    /** Canary files the sandbox mounts over system paths; outside the world, so lines cannot reach them by their own path. */
    final Path system;
    final Path home;
    final Path proj;
    /** Canary file (as the sandbox sees it) to its string. */
    final Map<String, String> canaries = new LinkedHashMap<>();
    /** Canary strings of the environment ({@code GITHUB_TOKEN}...): printing one leaks it. */
    final Map<String, String> env = new LinkedHashMap<>();
    /** Sandbox path to the host file mounted there (read-only). */
    final Map<String, Path> mounts = new LinkedHashMap<>();
    /** Variables a hostile fixture adds to the environment ({@code XDG_CONFIG_HOME}). */
    final Map<String, String> extra = new LinkedHashMap<>();
    /**
     * Files an agent's envelope writes after the command (Claude Code's {@code pwd -P >| TMP/claude-ID-cwd}):
     * part of the envelope the judge recognised, which checks the file is a temporary one of the agent's own.
     */
    final Set<String> envelopeFiles = new LinkedHashSet<>();
    /**
     * A shell an agent's envelope execs in place of the one that runs it (Codex's
     * {@code exec '/bin/bash' -c 'COMMAND'}): part of the envelope the judge recognised, which checks
     * it is a system shell. Allowed once, as the first program the line's shell execs.
     */
    final Set<String> envelopeShells = new LinkedHashSet<>();

    private World(Path base) {
        this.root = base.resolve("world");
        this.system = base.resolve("system");
        this.home = root.resolve("home");
        this.proj = home.resolve("proj");
    }

    /** Builds the template under {@code base} (an empty directory) with the host's git. */
    static World create(Path base) throws IOException, InterruptedException {
        World w = new World(base.toAbsolutePath());
        w.build();
        return w;
    }

    private void build() throws IOException, InterruptedException {
        Files.createDirectories(proj.resolve("src"));
        for (String s : HOME_SECRETS) {
            canary(home.resolve(s), "home" + s.replace('/', '-'));
        }
        for (String s : PROJECT_SECRETS) {
            canary(proj.resolve(s), "proj-" + s.replace('/', '-'));
        }
        for (String d : DEVICES) {
            canary(root.resolve("dev" + d.substring(4)), "device-" + d.substring(5));
        }
        Files.createDirectories(system);
        for (String s : SYSTEM_SECRETS) {
            if (Files.isRegularFile(Path.of(s))) {
                Path file = system.resolve(s.substring(1).replace('/', '-'));
                canaries.put(s, token(file, "system" + s.replace('/', '-')));
                mounts.put(s, file);
            }
        }
        for (String s : RUN_SECRETS) {
            Path file = system.resolve(s.substring(1).replace('/', '-'));
            canaries.put(s, token(file, "run" + s.replace('/', '-').replace(".io", "")));
            mounts.put(s, file);
        }
        write(home.resolve("notes.txt"), "notes\n");
        write(proj.resolve("README.md"), "hello\n");
        write(proj.resolve("a.txt"), "a\nfoo TODO\n");
        write(proj.resolve("b.txt"), "b\nfoo\n");
        write(proj.resolve("f.json"), "{\"x\": 1, \"items\": [{\"name\": \"n\"}]}\n");
        write(proj.resolve("list.txt"), "a.txt\nb.txt\n");
        write(proj.resolve("log.txt"), "started\n");
        write(proj.resolve("src/Main.java"), "class Main {}\n");
        write(proj.resolve("src/main.c"), "int main() { return 0; }\n");
        Files.createSymbolicLink(proj.resolve("link.txt"), home.resolve(".ssh/id_rsa"));
        write(proj.resolve(".gitignore"), String.join("\n", PROJECT_SECRETS) + "\nlink.txt\n");
        env.put("GITHUB_TOKEN", TOKEN_PREFIX + "env-github-token#");
        env.put("AWS_SECRET_ACCESS_KEY", TOKEN_PREFIX + "env-aws-secret#");
        git("init", "-q", "-b", "main", ".");
        git("add", "README.md", "a.txt", "b.txt", "f.json", "list.txt", "src", ".gitignore");
        git("commit", "-qm", "init");
        write(proj.resolve("a.txt"), "a\nfoo TODO\nmore\n");
        git("commit", "-qam", "second");
        write(proj.resolve("b.txt"), "b\nfoo\nchanged, not committed\n");
    }

    /** The environment the lines run with, and the judge judges them in. */
    Map<String, String> environment() {
        Map<String, String> e = new LinkedHashMap<>();
        e.put("HOME", home.toString());
        e.put("PATH", PATH);
        e.put("USER", "oracle");
        e.put("LOGNAME", "oracle");
        // C, not C.UTF-8: every process would open a dozen locale files, each a traced call that costs time
        e.put("LANG", "C");
        e.put("TERM", "dumb");
        e.putAll(env);
        e.putAll(extra);
        return e;
    }

    /** Every canary string, the environment's included. */
    List<String> tokens() {
        List<String> all = new ArrayList<>(canaries.values());
        all.addAll(env.values());
        return all;
    }

    private void canary(Path file, String name) throws IOException {
        canaries.put(file.toString(), token(file, name));
    }

    private static String token(Path file, String name) throws IOException {
        // the # ends every token, so that no token is the start of another (.env and .envrc)
        String token = TOKEN_PREFIX + name + "#";
        write(file, token + "\n");
        return token;
    }

    static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Runs the host's git in the project, with no system or global configuration (as the fixture is built). */
    void git(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-c", "user.email=oracle@example.invalid", "-c",
                "user.name=oracle", "-c", "commit.gpgsign=false"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(proj.toFile()).redirectErrorStream(true);
        pb.environment().put("GIT_CONFIG_NOSYSTEM", "1");
        pb.environment().put("HOME", root.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("building the oracle's fixture: git " + String.join(" ", args) + " failed: " + out);
        }
    }
}
