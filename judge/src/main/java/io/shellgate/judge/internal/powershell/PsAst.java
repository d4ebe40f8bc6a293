package io.shellgate.judge.internal.powershell;

import io.shellgate.judge.Span;
import java.util.List;

/** The PowerShell syntax the judge walks: statements, pipelines, commands and the expressions inside them. */
final class PsAst {

    private PsAst() {}

    sealed interface Statement permits Pipeline, Assignment, Block, FunctionDef {

        Span span();
    }

    /** Commands joined by {@code |}; pipelines chained by {@code &&} or {@code ||} are statements of their own. */
    record Pipeline(List<Element> elements, Span span) implements Statement {}

    /** {@code $x = ...}, {@code $env:PATH += ...}, {@code $a.b = ...}. */
    record Assignment(Expr target, String operator, Statement value, Span span) implements Statement {}

    /** {@code if}, {@code foreach}, {@code switch}, {@code try} and the like: what they evaluate and what they run. */
    record Block(String keyword, List<Expr> expressions, List<List<Statement>> bodies, Span span) implements Statement {}

    record FunctionDef(String name, List<Statement> body, Span span) implements Statement {}

    sealed interface Element permits CommandCall, ExprElement {}

    /**
     * A command: {@code invocation} is "" for a plain name, "&" for the call operator, "." for
     * dot-sourcing.
     */
    record CommandCall(String invocation, Expr name, List<Arg> args, List<Redirect> redirects, Span span) implements Element {}

    record ExprElement(Expr expr, List<Redirect> redirects, Span span) implements Element {}

    sealed interface Arg permits Param, Value, StopParsing {}

    /** {@code -Name} or {@code -Name:value}; the name as written, without the dash. */
    record Param(String name, Expr value, Span span) implements Arg {}

    record Value(Expr value, Span span) implements Arg {}

    /** {@code --%}: the rest of the line goes to a program unparsed. */
    record StopParsing(String text, Span span) implements Arg {}

    /** {@code >}, {@code >>}, {@code 2>}, {@code *>}, {@code 2>&1}...; {@code target} is null for a merge. */
    record Redirect(String operator, Expr target, Span span) {}

    sealed interface Expr permits Literal, Expandable, Variable, SubExpr, ScriptBlock, TypeName, Member, Compound {

        Span span();
    }

    /** Text whose value is known: a bareword, a single-quoted string, a number. */
    record Literal(String value, boolean quoted, Span span) implements Expr {}

    /** A double-quoted string or a bareword with variables or subexpressions in it. */
    record Expandable(List<Expr> parts, Span span) implements Expr {}

    /** {@code $name}, {@code ${name}}, {@code $env:NAME}; {@code splat} for {@code @name}. */
    record Variable(String name, boolean splat, Span span) implements Expr {}

    /** {@code $(...)}, {@code @(...)} or {@code (...)}. */
    record SubExpr(List<Statement> statements, Span span) implements Expr {}

    record ScriptBlock(List<Statement> statements, Span span) implements Expr {}

    /** {@code [Type]}. */
    record TypeName(String name, Span span) implements Expr {}

    /** {@code x.Name}, {@code x.Name(...)}, {@code [T]::Name(...)}; {@code arguments} is null for a property. */
    record Member(Expr target, String name, boolean isStatic, List<Expr> arguments, Span span) implements Expr {}

    /**
     * Operators, arrays, hash tables, indexes and casts: what they run is in their parts. A hash
     * table's parts are its keys and values in turn (a bareword key is a literal).
     */
    record Compound(Kind kind, List<Expr> parts, Span span) implements Expr {

        enum Kind {
            /** {@code a, b}. */
            ARRAY,
            /** Binary operators ({@code + -replace -f ..}), mixed with commas or not. */
            OPERATOR,
            /** {@code -not x}, {@code !x}, {@code -x}, {@code ,x}. */
            UNARY,
            /** {@code [Type] value}: the type, then the value. */
            CAST,
            /** {@code x.$name}: a member chosen at run time. */
            MEMBER,
            /** {@code x[i]}: the target, then the index. */
            INDEX,
            /** {@code @{ k = v; ... }}. */
            HASH
        }
    }
}
