package io.shellgate.judge.internal.analysis.language;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SedParserTest {

    @ParameterizedTest
    @ValueSource(strings = {"s/a/b/g", "1,10p", "/^#/d", ":a;N;$!ba;s/\\n/ /g", "$!N", "y/abc/xyz/", "1~2p", "0,/re/d",
            "s|a|b|", "/x/{p;d}", "/x/I,+3p", "$p", "s/a\\/b/c/2", "/start/,/end/ { s/x/y/; }", "a\\\nappended text",
            "i inserted; not a command", "# comment\np", "l 40", "q5", "s/x/\\\n/", "\\,x,d", "!d", "1!G;h;$!d", "=",
            "s/a/b/w /dev/stdout"})
    void allowsScriptsThatOnlyEditText(String script) {
        SedParser.Result r = SedParser.check(script);
        assertThat(r.problem()).as(script).isNull();
        assertThat(r.writes()).as(script).allMatch(w -> w.equals("/dev/stdout"));
        assertThat(r.reads()).as(script).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"e", "1e id", "s/a/b/e", "s/a/b/ge", "k", "s/a/b", "y/ab/x", "p x", "{p", "}", "s/a\nb/c/",
            "/x", "r"})
    void refusesScriptsThatRunCommandsOrCannotBeRead(String script) {
        assertThat(SedParser.check(script).problem()).as(script).isNotNull();
    }

    @Test
    void aLabelEndsAtWhitespaceSoWhatFollowsIsACommand() {
        assertThat(SedParser.check(":a w /dev/sda").writes()).containsExactly("/dev/sda");
        assertThat(SedParser.check("b end; w out").writes()).containsExactly("out");
        assertThat(SedParser.check(":a\tr .env").reads()).containsExactly(".env");
    }

    @Test
    void reportsEveryFileReadOrWritten() {
        assertThat(SedParser.check("r a\nR b\np").reads()).containsExactly("a", "b");
        assertThat(SedParser.check("s/a/b/w out.txt").writes()).containsExactly("out.txt");
        assertThat(SedParser.check("/x/w list; p").writes()).containsExactly("list; p");
        assertThat(SedParser.check("1r /etc/shadow").reads()).containsExactly("/etc/shadow");
    }
}
