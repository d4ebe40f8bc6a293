package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * The judge's expansion of words (quotes, escapes, $'...', variables, word splitting, ~, braces)
 * agrees with what a real bash passes to a program: both see {@code printf '%s\0' WORDS...}.
 */
class BashAgreementTest {

    private static final Judge JUDGE = Judges.defaults();
    private static final List<String> PIECES = List.of("a", "b1", "-x", "--y=z", "'s q'", "\"d q\"", "\\ ", "\\'", "\\\\",
            "'\"'", "\"'\"", "$'\\x41'", "$'\\101'", "$'a\\tb'", "$'\\''", "$X", "\"$X\"", "${X}", "$E", "\"$E\"",
            "${E:-def}", "${X:+alt}", "~", "~/f", "{p,q}", "{1..3}", "\"\\$X\"", "\\$X", "$\"t\"", "=", ":", "%", ",",
            "'*'", "\\*", "x\\\ny", "\"a\\\nb\"", "*", "?", "[ab]", "$'\\c'", "\"${X}\"", "${X#one}", "$\"\"",
            "\"'\"'\"'\"", "~u", "a=~/x", "\\\"", "\"\\\\\"");
    private static Path dir;
    private static Map<String, String> env;

    @BeforeContainer
    static void setUp() throws IOException {
        dir = Files.createTempDirectory("shellgate-bash");
        env = Map.of("HOME", "/home/u", "PATH", "/usr/bin:/bin", "X", "one  two", "E", "");
    }

    @AfterContainer
    static void tearDown() throws IOException {
        Files.deleteIfExists(dir);
    }

    @Provide
    Arbitrary<List<String>> words() {
        Arbitrary<String> word = Arbitraries.of(PIECES).list().ofMinSize(1).ofMaxSize(4).map(ps -> String.join("", ps));
        return word.list().ofMinSize(1).ofMaxSize(5);
    }

    @Property(tries = 1000, seed = "20261129")
    void expandsWordsAsBashDoes(@ForAll("words") List<String> words) throws Exception {
        String line = "printf '%s\\0' " + String.join(" ", words);
        List<String> bash = bash(line);
        Verdict v = JUDGE.judge(new JudgeRequest(line, Dialect.BASH, dir, env));
        if (v.reasons().stream().anyMatch(r -> r.rule().equals("parse-error"))) {
            // tree-sitter could not read it: never allowed, whatever bash makes of it
            assertThat(v.tier()).as(line).isNotEqualTo(io.shellgate.rules.Tier.ALLOW);
            return;
        }
        assertThat(v.commands()).as(line).isNotEmpty();
        List<String> ours = v.commands().getFirst().argv();
        List<String> args = ours.subList(2, ours.size());
        if (args.stream().anyMatch(a -> a.contains("…"))) {
            // what the judge cannot compute is marked unknown ("…", any text); the rest must agree with bash
            StringBuilder regex = new StringBuilder();
            for (int i = 0; i < args.size(); i++) {
                // next to a word that may vanish, the separator may vanish too
                String sep = i == 0 ? "" : args.get(i - 1).equals("…") ? "\0?" : "\0";
                if (args.get(i).equals("…")) {
                    // an unknown word may also expand to no word at all
                    regex.append("(?:").append(sep).append("[\\s\\S]*)?");
                    continue;
                }
                regex.append(sep);
                String[] known = args.get(i).split("…", -1);
                for (int k = 0; k < known.length; k++) {
                    regex.append(k > 0 ? "[\\s\\S]*" : "").append(java.util.regex.Pattern.quote(known[k]));
                }
            }
            assertThat(String.join("\0", bash)).as(line).matches(regex.toString());
            return;
        }
        // printf with no arguments still prints its format once, with an empty argument
        assertThat(args.isEmpty() ? List.of("") : args).as(line).isEqualTo(bash);
    }

    private static List<String> bash(String line) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "--norc", "--noprofile", "-c", line).directory(dir.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor();
        String s = new String(out, StandardCharsets.UTF_8);
        if (s.isEmpty()) {
            return List.of();
        }
        return new ArrayList<>(Arrays.asList(s.substring(0, s.length() - 1).split("\0", -1)));
    }
}
