package io.shellgate.judge.internal.syntax;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import org.junit.jupiter.api.Test;

class GlobsTest {

    private static boolean matches(String glob, String path) {
        return Pattern.compile(Globs.regex(glob, "[^/]", true)).matcher(path).matches();
    }

    @Test
    void starsAndQuestionMarksStayWithinASegmentAndTwoStarsCross() {
        assertThat(matches("/home/*/.ssh", "/home/u/.ssh")).isTrue();
        assertThat(matches("/home/*/.ssh", "/home/u/v/.ssh")).isFalse();
        assertThat(matches("/home/**/.ssh", "/home/u/v/.ssh")).isTrue();
        assertThat(matches("/home/**/.ssh", "/home/.ssh")).isTrue();
        assertThat(matches("/dev/sd?", "/dev/sda")).isTrue();
        assertThat(matches("/dev/sd?", "/dev/sd/")).isFalse();
        assertThat(matches("/a/**", "/a/b\nc/d")).isTrue();
    }

    @Test
    void aBracketIsAClassAndABangOrACaretNegatesIt() {
        assertThat(matches("/dev/sd[ab]", "/dev/sdb")).isTrue();
        assertThat(matches("/dev/sd[ab]", "/dev/sdc")).isFalse();
        // the shell's [!...]: any one character but these (RE2 alone would read "!" as one of them)
        assertThat(matches("/dev/sd[!a]", "/dev/sdb")).isTrue();
        assertThat(matches("/dev/sd[!a]", "/dev/sda")).isFalse();
        assertThat(matches("/dev/sd[^a]", "/dev/sdb")).isTrue();
        assertThat(matches("/dev/sd[^a]", "/dev/sda")).isFalse();
    }

    @Test
    void everythingElseIsLiteral() {
        assertThat(matches("/a.b", "/a.b")).isTrue();
        assertThat(matches("/a.b", "/axb")).isFalse();
        assertThat(matches("/a\\*", "/a*")).isTrue();
        assertThat(matches("/a\\*", "/ab")).isFalse();
        assertThat(matches("/x[", "/x[")).isTrue();
        assertThat(Pattern.compile(Globs.regex("/dev/sd[ab]", "[^/]", false)).matcher("/dev/sd[ab]").matches()).isTrue();
    }
}
