package io.shellgate.judge.internal.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Judge;
import io.shellgate.judge.JudgeRequest;
import io.shellgate.judge.Judges;
import io.shellgate.judge.Verdict;
import io.shellgate.rules.Tier;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random cmd lines: the judge never fails, never allows a line its parser rejects, and never
 * allows a line that ends by deleting a drive root.
 */
class CmdFuzzTest {

    private static final Judge JUDGE = Judges.defaults();
    private static final Map<String, String> ENV = Map.of("HOME", "/home/user", "PATH", "/usr/bin:/bin", "X", "a&b",
            "Y", "dir");
    private static final List<String> SAFE_TOKENS = List.of("dir", "type", "echo", "rd", "del", "/s", "/q", "/c", "C:\\",
            "%X%", "%Y%", "%Z%", "!X!", "%~dp0", "%i", "(", ")", "&", "&&", "||", "|", ">", ">>", "2>&1", "<", "nul", "@",
            "if", "exist", "not", "else", "for", "/f", "in", "do", "'", "call", ":x", "start", "cmd", "powershell", "-c",
            "rem", "set", "a=b", ",", ";", "=", " ", " ", " ", "\t", "\n", ".", "..", "\\", "*", "x");
    private static final List<String> TOKENS = concat(SAFE_TOKENS, List.of("^", "\"", "^\n"));

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static Verdict judge(String line) {
        return JUDGE.judge(new JudgeRequest(line, Dialect.CMD, Path.of("/"), ENV));
    }

    @Provide
    Arbitrary<String> lines() {
        return Arbitraries.of(TOKENS).list().ofMinSize(1).ofMaxSize(24).map(ts -> String.join("", ts));
    }

    @Provide
    Arbitrary<String> linesWithoutCaretsOrQuotes() {
        return Arbitraries.of(SAFE_TOKENS).list().ofMinSize(1).ofMaxSize(24).map(ts -> String.join("", ts));
    }

    @Property(tries = 3000, seed = "20261129")
    void randomLinesNeverFailTheJudge(@ForAll("lines") String line) {
        assertThat(judge(line).reasons()).noneMatch(r -> r.rule().equals("internal-error"));
    }

    @Property(tries = 3000, seed = "20261129")
    void aLineThatDoesNotParseIsNeverAllowed(@ForAll("lines") String line) {
        boolean parses;
        try {
            CmdParser.parse(line, CmdTokenizer.tokenize(line, ENV));
            parses = true;
        } catch (CmdSyntaxException e) {
            parses = false;
        }
        if (!parses) {
            assertThat(judge(line).tier()).isNotEqualTo(Tier.ALLOW);
        }
    }

    /** Without carets and quotes: a trailing ^ joins the next line, an open quote makes it text, and both are then harmless. */
    @Property(tries = 2000, seed = "20261129")
    void whateverComesFirstDeletingTheDriveAtTheEndIsNeverAllowed(@ForAll("linesWithoutCaretsOrQuotes") String prefix) {
        assertThat(judge(prefix + "\nrd /s /q C:\\\n").tier()).isNotEqualTo(Tier.ALLOW);
    }
}
