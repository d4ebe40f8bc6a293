package io.shellgate.judge.internal.analysis.options;

import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.rules.OptionSpec;
import io.shellgate.rules.ReadOnlyCommand;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;

class OptionParserTest {

    private static OptionParser parser(ReadOnlyCommand.Style style, String... specs) {
        return new OptionParser(Arrays.stream(specs).map(OptionSpec::parse).toList(), style);
    }

    private static OptionParser.Parsed parse(OptionParser p, String... args) {
        return p.parse(Arrays.stream(args).map(Field::literal).toList(), false);
    }

    private static List<String> names(OptionParser.Parsed parsed) {
        return parsed.options().stream().map(o -> o.name() + (o.value() == null ? "" : "=" + o.value().plain())).toList();
    }

    private static List<String> operands(OptionParser.Parsed parsed) {
        return parsed.operands().stream().map(Field::plain).toList();
    }

    private final OptionParser grep = parser(ReadOnlyCommand.Style.GNU, "-i", "-n", "-e=pattern", "-f=file", "-A=num",
            "-d={read,skip,recurse}", "--color=?text", "--file=file", "--max-count=num", "--regexp=pattern", "-NUM");

    @Test
    void readsOptionsAsGetoptLongDoes() {
        OptionParser.Parsed p = parse(grep, "-in", "-A3", "-e", "x", "--color=always", "--max-count", "5", "pat", "file",
                "-f", "list", "--", "-n");
        assertThat(p.problems()).isEmpty();
        assertThat(names(p)).containsExactly("-i", "-n", "-A=3", "-e=x", "--color=always", "--max-count=5", "-f=list");
        assertThat(operands(p)).containsExactly("pat", "file", "-n");
        // a bundle ends at an option that takes a value: the rest of the word is the value
        assertThat(names(parse(grep, "-ie.env"))).containsExactly("-i", "-e=.env");
        assertThat(names(parse(grep, "-5"))).containsExactly("-NUM=5");
    }

    @Test
    void anOptionalValueMustBeAttached() {
        OptionParser.Parsed p = parse(grep, "--color", "always", "f");
        assertThat(names(p)).containsExactly("--color");
        assertThat(operands(p)).containsExactly("always", "f");
    }

    @Test
    void abbreviationsAreRecognisedButNeverPermitted() {
        assertThat(parse(grep, "--max=3", "x").problems()).singleElement().asString()
                .contains("--max is an abbreviation of --max-count");
        assertThat(parse(grep, "--col", "x").problems()).singleElement().asString().contains("abbreviation of --color");
        assertThat(parse(grep, "--bogus", "x").problems()).singleElement().asString().contains("not on the permitted list");
    }

    @Test
    void valuesAreCheckedByTheirKind() {
        assertThat(parse(grep, "-d", "recurse", "x").problems()).isEmpty();
        assertThat(parse(grep, "-d", "rec", "x").problems()).singleElement().asString().contains("not one of read, skip");
        assertThat(parse(grep, "-A", "id_rsa", "x").problems()).singleElement().asString().contains("is not a number");
        OptionParser sort = parser(ReadOnlyCommand.Style.GNU, "--compress-program=code", "-o=out");
        assertThat(parse(sort, "--compress-program=sh").problems()).singleElement().asString().contains("runs a program");
        assertThat(parse(sort, "-o", "out").options().getFirst().spec().value()).isEqualTo(OptionSpec.Value.OUTPUT);
        assertThat(parse(grep, "-d", "recurse").hasAny(List.of("-d=recurse"))).isTrue();
        assertThat(parse(grep, "-d", "skip").hasAny(List.of("-d=recurse"))).isFalse();
    }

    @Test
    void posixUtilitiesStopAtTheFirstOperand() {
        OptionParser printf = parser(ReadOnlyCommand.Style.POSIX, "--help");
        OptionParser.Parsed p = parse(printf, "%s", "-v", "x");
        assertThat(p.problems()).isEmpty();
        assertThat(operands(p)).containsExactly("%s", "-v", "x");
    }

    @Test
    void gitTakesNoFormsOfTheOptionsItLists() {
        OptionParser log = parser(ReadOnlyCommand.Style.GIT, "--color=?text", "--stat", "--no-index");
        assertThat(names(parse(log, "--no-color", "--no-stat", "--no-index"))).containsExactly("--no-color", "--no-stat",
                "--no-index");
        assertThat(parse(log, "--no-textconv").problems()).isNotEmpty();
        assertThat(parse(parser(ReadOnlyCommand.Style.GNU, "--stat"), "--no-stat").problems()).isNotEmpty();
    }

    @Test
    void wordOptionsAreWholeWords() {
        OptionParser find = parser(ReadOnlyCommand.Style.WORDS, "-name=pattern", "-type=text", "-print");
        OptionParser.Parsed p = parse(find, ".", "-name", "*.c", "-print");
        assertThat(names(p)).containsExactly("-name=*.c", "-print");
        OptionParser java = parser(ReadOnlyCommand.Style.GNU, "-version", "-v");
        assertThat(names(parse(java, "-version"))).containsExactly("-version");
        assertThat(parse(java, "-vx").problems()).isNotEmpty();
    }
}
