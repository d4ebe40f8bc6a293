package io.shellgate.judge;

import static org.assertj.core.api.Assertions.assertThat;

import io.shellgate.judge.internal.syntax.ScriptPrinter;
import io.shellgate.judge.internal.treesitter.TreeSitterBashParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How constructs of the shell language come out of the converter (golden strings). */
class SyntaxTreeTest {

    private static final TreeSitterBashParser PARSER = new TreeSitterBashParser();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '¦', quoteCharacter = '`', textBlock = """
            timeout 60 ls -la | grep x                 ¦ (pipe (cmd timeout 60 ls -la) (cmd grep x))
            r''m -rf /                                 ¦ (cmd r''m -rf /)
            \\rm x                                     ¦ (cmd 'r'm x)
            $'\\x72m' x                                ¦ (cmd 'rm' x)
            git re\\⏎set --hard                        ¦ (cmd git reset --hard)
            a && b > f                                 ¦ (seq (cmd a) (cmd b >f))
            echo "a $(id) b"                           ¦ (cmd echo 'a '$((cmd id))' b')
            FOO=bar ls                                 ¦ (cmd FOO=bar ls)
            x=1; export Y=2                            ¦ (seq (cmd x=1) (cmd export 'Y='2))
            cat <<EOF | sh⏎rm x⏎EOF                    ¦ (pipe (cmd cat <<['rm x\\n']) (cmd sh))
            cat <<'EOF'⏎$(x)⏎EOF                       ¦ (cmd cat <<[''$(x)\\n'])
            f() { a & b & }                            ¦ (function f (group (seq (bg (cmd a)) (bg (cmd b)))))
            echo ${x:-$(id)}                           ¦ (cmd echo ${x :- $((cmd id))})
            echo $"text"                               ¦ (cmd echo 'text')
            ls ;; pwd                                  ¦ (seq (cmd ls) (cmd pwd)) errors=1
            echo 'open                                 ¦ (cmd echo) errors=2
            """)
    void convertsConstructs(String line, String expected) {
        String text = line.strip().replace("⏎", "\n");
        assertThat(ScriptPrinter.print(PARSER.parse(text, 1_000_000_000L))).isEqualTo(expected.strip());
    }
}
