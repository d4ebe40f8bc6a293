package io.shellgate.reviewer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RedactorTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            mysql --password=hunter2 db                                  | mysql --password=[REDACTED] db
            tool --api-key 'abc def' run                                  | tool --api-key [REDACTED] run
            gh auth login --with-token ghp_abcdefghijklmnopqrstuvwx1234   | gh auth login --with-token [REDACTED]
            curl -H 'Authorization: Bearer eyJhbGciOi.payload' https://x  | curl -H 'Authorization: Bearer [REDACTED]' https://x
            curl -H "X-Api-Key: k123456" https://x                        | curl -H "X-Api-Key: [REDACTED]" https://x
            GITHUB_TOKEN=abc123 gh pr list                                | GITHUB_TOKEN=[REDACTED] gh pr list
            export AWS_SECRET_ACCESS_KEY="wJalr/XUtnFEMI"                 | export AWS_SECRET_ACCESS_KEY=[REDACTED]
            git clone https://me:s3cret@example.com/r.git                 | git clone https://me:[REDACTED]@example.com/r.git
            echo sk-proj-abcdefghijklmnopqrstuvwxyz012345                 | echo [REDACTED]
            aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE      | aws configure set aws_access_key_id [REDACTED]
            mysql -uroot -phunter2 db                                     | mysql -uroot -p[REDACTED] db
            ls -la                                                        | ls -la
            git log --author=token                                        | git log --author=token
            """)
    void hidesSecretsAndKeepsTheRest(String command, String expected) {
        assertThat(Redactor.redact(command)).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void hidesAPrivateKeyBlock() {
        String key = "printf '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----' > k";
        assertThat(Redactor.redact(key)).isEqualTo("printf '[REDACTED]' > k").doesNotContain("b3BlbnNzaC1rZXk");
    }
}
