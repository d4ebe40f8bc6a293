package io.shellgate.judge.internal.cmd;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CmdTokenizerTest {

    private static List<String> words(String line, Map<String, String> env) {
        return CmdTokenizer.tokenize(line, env).stream().map(t -> t.kind() + ":" + t.text() + (t.known() ? "" : "?")).toList();
    }

    @Test
    void caretsAndQuotesAreRemovedAndOtherSeparatorsSplit() {
        assertThat(words("r^d \"/s\";/q,C:\\=x", Map.of())).containsExactly("WORD:rd", "WORD:/s", "WORD:/q", "WORD:C:\\",
                "WORD:x");
    }

    @Test
    void operatorsAndRedirectionsAreTokens() {
        assertThat(words("a&b&&c||d|e 2>nul >>o.txt 2>&1 (f)", Map.of())).containsExactly("WORD:a", "AND:&", "WORD:b",
                "AND_IF:&&", "WORD:c", "OR_IF:||", "WORD:d", "PIPE:|", "WORD:e", "REDIRECT:2>nul", "REDIRECT:>>o.txt",
                "REDIRECT:2>&1", "OPEN:(", "WORD:f", "CLOSE:)");
    }

    @Test
    void variablesExpandOnlyWhenTheyCannotChangeTheSplit() {
        Map<String, String> env = Map.of("A", "dir", "B", "x & y", "path", "C:\\bin");
        assertThat(words("%a% %B% %PATH% %C% !A! %P:~0,1%", env)).containsExactly("WORD:dir", "WORD:%B%?", "WORD:C:\\bin",
                "WORD:%C%?", "WORD:!A!?", "WORD:%P:~0,1%?");
    }

    @Test
    void aCaretAtTheEndOfALineJoinsTheNext() {
        assertThat(words("rd /s C:\\^\nWindows", Map.of())).containsExactly("WORD:rd", "WORD:/s", "WORD:C:\\Windows");
    }
}
