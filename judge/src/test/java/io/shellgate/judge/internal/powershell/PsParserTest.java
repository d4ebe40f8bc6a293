package io.shellgate.judge.internal.powershell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shellgate.judge.Span;
import java.util.List;
import org.junit.jupiter.api.Test;

class PsParserTest {

    private static PsAst.CommandCall onlyCommand(String text) {
        List<PsAst.Statement> s = PsParser.parse(text, false).statements();
        assertThat(s).hasSize(1);
        PsAst.Pipeline p = (PsAst.Pipeline) s.getFirst();
        assertThat(p.elements()).hasSize(1);
        return (PsAst.CommandCall) p.elements().getFirst();
    }

    @Test
    void readsParametersWithColonValuesAndArrays() {
        PsAst.CommandCall c = onlyCommand("Get-Content -Path:a.txt b,c");
        assertThat(c.name()).isEqualTo(new PsAst.Literal("Get-Content", false, new Span(0, 11)));
        assertThat(c.args().getFirst()).isEqualTo(new PsAst.Param("Path", new PsAst.Literal("a.txt", false, new Span(18, 23)),
                new Span(12, 23)));
        PsAst.Value array = (PsAst.Value) c.args().get(1);
        assertThat(((PsAst.Compound) array.value()).parts()).extracting(e -> ((PsAst.Literal) e).value()).containsExactly("b", "c");
    }

    @Test
    void backticksEscapeAndTypographicQuotesQuote() {
        PsAst.CommandCall c = onlyCommand("Re`move-Item \u2018C:\\x y\u2019 \u201Ca`tb\u201D");
        assertThat(((PsAst.Literal) c.name()).value()).isEqualTo("Remove-Item");
        assertThat(((PsAst.Literal) ((PsAst.Value) c.args().get(0)).value()).value()).isEqualTo("C:\\x y");
        assertThat(((PsAst.Literal) ((PsAst.Value) c.args().get(1)).value()).value()).isEqualTo("a\tb");
    }

    @Test
    void typographicDashesStartParameters() {
        PsAst.CommandCall c = onlyCommand("Remove-Item \u2013Recurse \u2014Force x");
        assertThat(c.args()).hasSize(3);
        assertThat(((PsAst.Param) c.args().get(0)).name()).isEqualTo("Recurse");
        assertThat(((PsAst.Param) c.args().get(1)).name()).isEqualTo("Force");
    }

    @Test
    void expandableStringsKeepTheirSubexpressions() {
        PsAst.CommandCall c = onlyCommand("Write-Output \"n: $(Get-Date) $env:HOME\"");
        PsAst.Expandable e = (PsAst.Expandable) ((PsAst.Value) c.args().getFirst()).value();
        assertThat(e.parts()).hasExactlyElementsOfTypes(PsAst.Literal.class, PsAst.SubExpr.class, PsAst.Literal.class,
                PsAst.Variable.class);
    }

    @Test
    void hereStringsEndAtTheirClosingLine() {
        List<PsAst.Statement> s = PsParser.parse("$a = @'\nx 'y' \"z\"\n'@; Get-Location", false).statements();
        assertThat(s).hasSize(2);
        PsAst.Assignment a = (PsAst.Assignment) s.getFirst();
        PsAst.ExprElement value = (PsAst.ExprElement) ((PsAst.Pipeline) a.value()).elements().getFirst();
        assertThat(((PsAst.Literal) value.expr()).value()).isEqualTo("x 'y' \"z\"");
    }

    @Test
    void commentsAreCollectedAndEndTheLine() {
        PsParser.Result r = PsParser.parse("Get-Location # rm -rf /\n<# x #> Get-Date", false);
        assertThat(r.statements()).hasSize(2);
        assertThat(r.comments()).containsExactly(new Span(13, 23), new Span(24, 31));
    }

    @Test
    void chainsAreStatementsInPowerShell7AndErrorsIn51() {
        assertThat(PsParser.parse("a && b || c", false).statements()).hasSize(3);
        assertThatThrownBy(() -> PsParser.parse("a && b", true)).isInstanceOf(PsSyntaxException.class);
    }

    @Test
    void controlFlowKeepsEveryBody() {
        PsAst.Block b = (PsAst.Block) PsParser.parse("if (a) { b } elseif (c) { d } else { e }", false).statements().getFirst();
        assertThat(b.keyword()).isEqualTo("if");
        assertThat(b.bodies()).hasSize(5);
    }

    @Test
    void nestingPastTheBudgetIsRejected() {
        String deep = "(".repeat(200) + "1" + ")".repeat(200);
        assertThatThrownBy(() -> PsParser.parse(deep, false)).isInstanceOf(PsSyntaxException.class)
                .hasMessageContaining("nested");
    }

    @Test
    void unclosedConstructsAreRejected() {
        for (String bad : List.of("'x", "\"x", "{ a", "(a", "@'\nx", "<# x", "a |", "$(a", "[int")) {
            assertThatThrownBy(() -> PsParser.parse(bad, false)).as(bad).isInstanceOf(PsSyntaxException.class);
        }
    }
}
