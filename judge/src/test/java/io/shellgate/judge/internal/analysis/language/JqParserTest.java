package io.shellgate.judge.internal.analysis.language;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JqParserTest {

    @ParameterizedTest
    @ValueSource(strings = {".", ".foo", ".[] | .name", ".items[].name", ".a.b?", ".[1:3]", ".[:2]", ".[\"a b\"]",
            "map(select(.a > 1)) | length", "{name, id: .x, \"k\": 1, (.k): .v, $__loc__}", "{env: 1, if: 2}", ".env",
            "[.[] | tostring] | join(\",\")", "reduce .[] as $x (0; . + $x)", "foreach .[] as $x (0; . + $x; [$x, .])",
            "if . then 1 elif . == 2 then 2 else 3 end", "try error(\"x\") catch .", "label $out | 1, break $out",
            "def f: . + 1; def g(h; $x): h + $x; f | g(.; 2)", ". as [$a, {b: $c}] | $a", ". as [$a] ?// $a | $a",
            "\"x\\(.a + 1)y\\(\"in\\(.b)\")\"", "@base64 \"\\(.)\"", "@sh", ".a // \"none\"", ".a? // 1", "..|numbers",
            "to_entries | map(\"\\(.key)=\\(.value)\") | .[]", "input, inputs", "input_filename", "$__loc__",
            "def env: 1; env", "limit(3; .[])", "-1 + 2 * 3 % 4", ".a |= . + 1", "getpath([\"a\"]) | paths", "not",
            "# comment\n.", "[.[] | {a: -.x | tostring}]", "splits(\", \")", "ltrimstr(\"x\") | test(\"a\"; \"i\")"})
    void allowsReadOnlyFilters(String program) {
        assertThat(JqParser.problem(program)).as(program).isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"env", "env.HOME", "$ENV", "$ENV.PATH", "$ ENV.AWS_SECRET_ACCESS_KEY", "\"\\(env)\"", "{$ENV}",
            "{(env | tostring): 1}", "{a: env}", "[.[] | env]", "import \"a\" as a; .", "include \"a\"; .",
            "module {}; .", "modulemeta", "get_search_list", "a::f", "unknown_function", "(def env: 1; env), env",
            "def env(f): 1; env", ".[", "{", "\"unclosed", "if . then 1", ". as $x", "reduce . as $x (0)",
            "# env\nenv"})
    void refusesWhatReadsTheEnvironmentLoadsModulesOrCannotBeRead(String program) {
        assertThat(JqParser.problem(program)).as(program).isNotNull();
    }
}
