package io.shellgate.judge.internal.analysis.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class GitSettingsTest {

    private static GitRepository repo(String scope, String key, String value) {
        return new GitRepository(Path.of("/r/.git"), Path.of("/r"),
                List.of(new GitRepository.Setting(scope, "file:/r/.git/config", key, value)), List.of(), null);
    }

    @Test
    void readsGitsNulSeparatedListing() {
        assertThat(GitRepository.parseList("system\u0000file:/etc/gitconfig\u0000core.pager\nless -R\u0000"
                + "local\u0000file:.git/config\u0000core.bare\u0000"))
                .containsExactly(new GitRepository.Setting("system", "file:/etc/gitconfig", "core.pager", "less -R"),
                        new GitRepository.Setting("local", "file:.git/config", "core.bare", null));
        assertThat(GitRepository.parseList("")).isEmpty();
        // not in the form git prints: no answer rather than a guess
        assertThat(GitRepository.parseList("core.bare=true\n")).isNull();
        assertThat(GitRepository.parseList("local\u0000file:x\u0000")).isNull();
    }

    @Test
    void comparesKeysAsGitDoes() {
        assertThat(GitRepository.normal("Remote.Origin.URL")).isEqualTo("remote.Origin.url");
        assertThat(repo("local", "remote.origin.url", "x").values("REMOTE.origin.Url")).containsExactly("x");
        assertThat(repo("local", "remote.origin.url", "x").values("remote.ORIGIN.url")).isEmpty();
    }

    @Test
    void findsCredentialsInUrls() {
        for (String v : List.of("https://x-access-token:ghp_x@github.com/o/r.git", "https://ghp_token@github.com/o/r",
                "http://u:p@host", "ftp://user@host/x", "user:pass@host:path")) {
            assertThat(GitSettings.holdsCredential(v)).as(v).isTrue();
        }
        for (String v : List.of("https://github.com/o/r.git", "git@github.com:o/r.git", "ssh://git@github.com/o/r",
                "https://host/path@x", "/srv/repo.git", "origin")) {
            assertThat(GitSettings.holdsCredential(v)).as(v).isFalse();
        }
    }

    @Test
    void findsSignaturePlaceholders() {
        for (String f : List.of("%G?", "%h %GG", "format:%GS", "%(signature)", "%(signature:key)")) {
            assertThat(GitSettings.signatureFormat(f)).as(f).isTrue();
        }
        for (String f : List.of("%H %s", "%%G?", "oneline", "%(refname)", "%")) {
            assertThat(GitSettings.signatureFormat(f)).as(f).isFalse();
        }
    }

    @Test
    void judgesSettingsByTheirScope() {
        assertThat(GitSettings.danger(repo("global", "core.fsmonitor", "./x"))).contains("core.fsmonitor", "global");
        assertThat(GitSettings.danger(repo("system", "diff.x.textconv", "sh -c id"))).contains("textconv");
        assertThat(GitSettings.danger(repo("global", "core.pager", "delta"))).contains("core.pager");
        assertThat(GitSettings.danger(repo("global", "core.pager", "less -FRX"))).isNull();
        assertThat(GitSettings.danger(repo("global", "core.pager", "less -kkeys"))).contains("core.pager");
        assertThat(GitSettings.danger(repo("global", "pager.branch", "false"))).isNull();
        assertThat(GitSettings.danger(repo("global", "log.showSignature", "true"))).contains("gpg");
        assertThat(GitSettings.danger(repo("global", "pretty.sig", "%h %G?"))).contains("signature");
        // what only commands outside the read-only forms use counts in the repository's own scopes
        assertThat(GitSettings.danger(repo("global", "core.editor", "vim"))).isNull();
        assertThat(GitSettings.danger(repo("local", "core.editor", "vim"))).contains("core.editor");
        assertThat(GitSettings.danger(repo("command", "core.hooksPath", "h"))).contains("hook");
        assertThat(GitSettings.danger(repo("system", "credential.helper", "store"))).isNull();
        assertThat(GitSettings.danger(repo("local", "core.fsmonitor", "false"))).isNull();
    }

    @Test
    void findsWhatMakesARepositoryFetchOnDemand() {
        assertThat(GitSettings.lazyFetch(repo("local", "extensions.partialClone", "origin"))).contains("partialClone");
        assertThat(GitSettings.lazyFetch(repo("local", "remote.origin.promisor", null))).contains("promisor");
        assertThat(GitSettings.lazyFetch(repo("local", "remote.origin.promisor", "false"))).isNull();
        assertThat(GitSettings.lazyFetch(repo("local", "remote.origin.partialclonefilter", "blob:none"))).isNotNull();
        assertThat(GitSettings.lazyFetch(repo("local", "remote.origin.url", "x"))).isNull();
    }
}
