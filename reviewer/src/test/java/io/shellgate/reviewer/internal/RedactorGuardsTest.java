package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The redactor skips a pattern when the text lacks a word the pattern cannot match without; these
 * checks make sure skipping never changes the result, on text built from the very pieces the
 * patterns look for.
 */
class RedactorGuardsTest {

    private static final List<String> PIECES = List.of(
            "--", "-", "-p", "=", ":", "://", "@", " ", "'", "\"", ";", "|", "&", "(", ")", "\n", "_",
            "password", "PassWd", "pass", "TOKEN", "token", "secret", "api-key", "api_key", "Access_Key", "private-key",
            "client_secret", "auth", "Authorization", "proxy-authorization", "x-api-key", "X-Auth-Token", "private-token",
            "Cookie", "bearer ", "Basic ", "credentials", "mysql", "mysqldump", "MariaDB", "sshpass", "https", "user",
            "hunter2", "sk-", "sk-proj-", "ghp_", "github_pat_", "glpat-", "xoxb-", "AKIA", "ASIA", "AIza", "npm_", "hf_",
            "eyJ", ".", "-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----",
            "abcdefghijklmnopqrstuvwxyz0123456789", "ABCDEFGHIJKLMNOP", "0123456789", "git", "curl", "echo", "x");

    @Provide
    Arbitrary<String> commandLines() {
        return Arbitraries.of(PIECES).list().ofMinSize(1).ofMaxSize(14).map(list -> String.join("", list));
    }

    @Property(tries = 3000)
    void guardsNeverChangeTheResult(@ForAll("commandLines") String text) {
        assertThat(Redactor.redact(text)).isEqualTo(Redactor.redactFully(text));
    }

    @Property(tries = 500)
    void guardsNeverChangeTheResultOnArbitraryAscii(@ForAll("asciiLines") String text) {
        assertThat(Redactor.redact(text)).isEqualTo(Redactor.redactFully(text));
    }

    @Provide
    Arbitrary<String> asciiLines() {
        return Arbitraries.strings().withCharRange(' ', '~').withChars('\n', '\t').ofMaxLength(120);
    }

    @Test
    void aSecretSpelledWithCaseFoldingBeyondAsciiIsStillHidden() {
        // U+212A KELVIN SIGN is a k to a case-insensitive pattern; no lower-cased guard would see "token"
        String text = "tool --to\u212Aen=hunter2 run";
        assertThat(Redactor.redact(text)).isEqualTo("tool --to\u212Aen=[REDACTED] run");
    }

    @Test
    void aPlainCommandIsReturnedAsItIs() {
        String text = "git status --short";
        assertThat(Redactor.redact(text)).isSameAs(text);
    }
}
