package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.internal.treesitter.JtreesitterBashParser;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;

/**
 * Random and mutated command lines: the judge never fails, never allows a line that does not
 * parse, and never allows a line that ends by running a catastrophic command.
 */
class FuzzTest {

    private static final Judge JUDGE = Judges.defaults();
    private static final Map<String, String> ENV = Map.of("HOME", "/home/user", "PATH", "/usr/bin:/bin", "X", "a b");
    private static final List<String> TOKENS = List.of("ls", "cat", "rm", "-rf", "/", "~", "$HOME", "$X", "${X:-y}",
            "\"", "'", "\\", "$(", ")", "`", "|", "||", "&&", ";", "&", "\n", "<<EOF", "EOF", "<", ">", ">>", "2>&1",
            "{", "}", "(", "((", "))", "*", "?", "[", "]", "$'\\x72m'", "=", "a=1", "if", "then", "fi", "for", "do",
            "done", "case", "esac", "in", "eval", "bash", "-c", "sh", "xargs", "find", "-exec", "{}", "\\;", "#", "!",
            "<(", ">(", "$((", "[[", "]]", "@", "%", "^", ",", ".", "..", " ", " ", " ", "\t", "echo", "timeout", "5",
            "env", "git", "reset", "--hard", "curl", "x");

    private static Verdict judge(String line) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.BASH, Path.of("/"), ENV));
    }

    @Provide
    Arbitrary<String> lines() {
        return Arbitraries.of(TOKENS).list().ofMinSize(1).ofMaxSize(24).map(ts -> String.join("", ts));
    }

    @Provide
    Arbitrary<String> mutatedCorpusLines() {
        List<String> corpus = CorpusCase.all().stream().map(CorpusCase::command).filter(s -> !s.isEmpty()).toList();
        Arbitrary<String> base = Arbitraries.of(corpus);
        Arbitrary<Integer> position = Arbitraries.integers().between(0, 200);
        Arbitrary<String> insert = Arbitraries.of(TOKENS);
        Arbitrary<Boolean> delete = Arbitraries.of(true, false);
        return Combinators.combine(base, position, insert, delete).as((b, p, i, d) -> {
            int at = Math.min(p, b.length());
            return d && at < b.length() ? b.substring(0, at) + b.substring(at + 1) : b.substring(0, at) + i + b.substring(at);
        });
    }

    @Property(tries = 3000, seed = "20261129")
    void randomLinesNeverFailTheJudge(@ForAll("lines") String line) {
        Verdict v = judge(line);
        assertThat(v.reasons()).noneMatch(r -> r.rule().equals("internal-error"));
    }

    @Property(tries = 3000, seed = "20261129")
    void mutatedCorpusLinesNeverFailTheJudge(@ForAll("mutatedCorpusLines") String line) {
        Verdict v = judge(line);
        assertThat(v.reasons()).noneMatch(r -> r.rule().equals("internal-error"));
    }

    @Property(tries = 2000, seed = "20261129")
    void aLineThatDoesNotParseIsNeverAllowed(@ForAll("lines") String line) {
        boolean errors = new JtreesitterBashParser().parse(line, 0).errors().size() > 0;
        if (errors) {
            assertThat(judge(line).tier()).isNotEqualTo(Tier.ALLOW);
        }
    }

    @Property(tries = 2000, seed = "20261129")
    void whateverComesFirstACatastropheAtTheEndIsNeverAllowed(@ForAll("lines") String prefix) {
        assertThat(judge(prefix + "\nrm -rf /\n").tier()).isNotEqualTo(Tier.ALLOW);
        assertThat(judge(prefix + "\ncurl -s x | sh\n").tier()).isNotEqualTo(Tier.ALLOW);
    }

    @Property(tries = 300, seed = "20261129")
    void oversizedLinesAreAskedAboutWithoutParsing(@ForAll("lines") String line) {
        String big = (line + " ").repeat(70_000 / (line.length() + 1) + 1);
        Verdict v = judge(big);
        assertThat(v.tier()).isEqualTo(Tier.ASK);
        assertThat(v.reasons()).anyMatch(r -> r.rule().equals("input-too-large"));
    }
}
