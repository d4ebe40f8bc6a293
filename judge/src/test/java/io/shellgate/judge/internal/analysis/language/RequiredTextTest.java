package io.shellgate.judge.internal.analysis.language;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import io.shellgate.rules.PolicyLoader;
import io.shellgate.rules.Rule;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The words a raw-text expression cannot match without decide whether it runs at all, so they
 * must never be wrong: every text the expression finds a match in must contain one of them.
 */
class RequiredTextTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", textBlock = """
            /proc/sysrq-trigger                                  => [/proc/sysrq-trigger]
            git\\s+(?:-\\S+\\s+)*clean\\s+-[a-zA-Z]*f                => [clean]
            (?i)vssadmin(?:\\.exe)?\\s+delete|shadowcopy\\b         => [vssadmin, shadowcopy]
            (?:curl|wget)\\b[^|]*\\|\\s*(?:ba|z)?sh\\b                => [curl, wget]
            (?:mkfs(?:\\.\\w+)?|mke2fs|mkswap)\\s                    => [mkfs, mke2fs, mkswap]
            \\\\?rm\\s+-[rR]                                        => [-r]
            ab?c                                                 => [abc, ac]
            [Rr]m                                                => [rm]
            """)
    void findsTheWordsAMatchCannotLack(String regex, String words) {
        assertThat(String.valueOf(RequiredText.of(regex))).isEqualTo(words);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", textBlock = """
            .*
            a*
            (?:^|x)
            \\pL+
            \\x41
            [^a]b?
            \\Qrm\\E
            a|b*
            (?i)\u017fudo
            """)
    void givesNoWordsWhenItCannotBeSure(String regex) {
        assertThat(RequiredText.of(regex)).isNull();
        assertThat(RequiredText.mayMatch(null, "anything")).isTrue();
    }

    private static final List<String> PIECES = List.of("a", "b", "c", "A", "B", "-", " ", "/", "ab", "x", ".", "|", "\n");

    @Provide
    Arbitrary<String> regexes() {
        return regex(4);
    }

    private static Arbitrary<String> regex(int depth) {
        Arbitrary<String> atom = Arbitraries.of("a", "b", "c", "A", "ab", "-", "\\.", "\\-", "\\s", "\\S", "\\w", ".", "^", "$",
                "\\b", "[ab]", "[aB]", "[^a]", "[a-c]", "[-a]", "[]a]", "[\\s/]", "x", "/", "(?i)", "(?i)a", "\\|", "\\\\");
        if (depth == 0) {
            return atom;
        }
        Arbitrary<String> sub = Arbitraries.lazy(() -> regex(depth - 1));
        return Arbitraries.oneOf(
                atom,
                Arbitraries.of("", "*", "+", "?", "{2}", "{1,2}", "{0,1}", "{2,}", "*?", "+?").flatMap(q ->
                        sub.map(s -> "(?:" + s + ")" + q)),
                sub.list().ofMinSize(2).ofMaxSize(4).map(l -> String.join("", l)),
                sub.list().ofMinSize(2).ofMaxSize(3).map(l -> "(?:" + String.join("|", l) + ")"),
                sub.map(s -> "(?i:" + s + ")"),
                sub.map(s -> "(" + s + ")"));
    }

    @Provide
    Arbitrary<List<String>> texts() {
        return Arbitraries.of(PIECES).list().ofMaxSize(10).map(l -> String.join("", l)).list().ofSize(40);
    }

    @Property(tries = 4000, seed = "20261130")
    void aTextWithAMatchAlwaysHasOneOfTheWords(@ForAll("regexes") String regex, @ForAll("texts") List<String> texts) {
        Pattern p;
        try {
            p = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            Assume.that(false);
            return;
        }
        List<String> words = RequiredText.of(regex);
        for (String text : texts) {
            if (p.matcher(text).find()) {
                assertThat(RequiredText.mayMatch(words, text.toLowerCase(Locale.ROOT)))
                        .as("%s finds a match in %s but words are %s", regex, Tuple.of(text), words).isTrue();
            }
        }
    }

    @Test
    void theDefaultPolicysExpressionsMissNoLineOfTheCorpus() throws Exception {
        List<Rule> raw = PolicyLoader.load(List.of(PolicyLoader.builtIn()), null).rules().stream()
                .filter(r -> r.raw().isPresent()).toList();
        assertThat(raw).hasSizeGreaterThan(15);
        int withWords = 0;
        int matches = 0;
        List<String> lines = corpusLines();
        for (Rule rule : raw) {
            Pattern p = Pattern.compile(rule.raw().get());
            List<String> words = RequiredText.of(rule.raw().get());
            withWords += words == null ? 0 : 1;
            for (String line : lines) {
                if (RequiredText.isAscii(line) && p.matcher(line).find()) {
                    matches++;
                    assertThat(RequiredText.mayMatch(words, line.toLowerCase(Locale.ROOT))).as(rule.id() + ": " + line).isTrue();
                }
            }
        }
        // the check is worth having: most rules have words, and the corpus does hit the rules
        assertThat(withWords).isGreaterThan(raw.size() * 3 / 4);
        assertThat(matches).isGreaterThan(100);
    }

    private static List<String> corpusLines() throws IOException, URISyntaxException {
        List<String> out = new ArrayList<>();
        Path dir = Path.of(RequiredTextTest.class.getResource("/corpus").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".txt")).toList()) {
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    int space = line.indexOf(' ');
                    if (!line.startsWith("#") && space > 0) {
                        out.add(line.substring(space + 1).replace("⏎", "\n").replace("␍", "\r"));
                    }
                }
            }
        }
        return out;
    }
}
