package io.shellgate.judge.internal.analysis.walk;

import io.shellgate.judge.Dialect;
import io.shellgate.judge.Span;
import io.shellgate.judge.internal.analysis.host.HostView;
import io.shellgate.judge.internal.analysis.model.Field;
import io.shellgate.judge.internal.analysis.model.Scope;
import io.shellgate.judge.internal.analysis.options.OptionParser;
import io.shellgate.judge.internal.analysis.policy.CompiledPolicy;
import io.shellgate.judge.internal.syntax.Word;
import io.shellgate.rules.Tier;
import java.util.List;
import java.util.function.Predicate;

/** The {@link CheckContext} of one judgement: each call goes to the analyzer's part that does it. */
final class WalkContext implements CheckContext {

    private final Analyzer a;

    WalkContext(Analyzer analyzer) {
        this.a = analyzer;
    }

    @Override
    public void add(String rule, Tier tier, String message, Span span) {
        a.add(rule, tier, message, span);
    }

    @Override
    public CompiledPolicy policy() {
        return a.policy;
    }

    @Override
    public HostView host() {
        return a.host;
    }

    @Override
    public void judgeArgv(Invocation parent, List<Field> argv) {
        a.commands.judgeArgv(parent, argv);
    }

    @Override
    public void nestedCode(Invocation inv, Field text, Dialect dialect, Scope scope, String what) {
        NestedCode.code(a, inv, text, dialect, scope, what);
    }

    @Override
    public boolean downloads(Field f) {
        return a.downloads(f);
    }

    @Override
    public void data(Span span) {
        a.data(span);
    }

    @Override
    public Field single(Word word, Scope scope) {
        return a.expander.single(word, scope);
    }

    @Override
    public boolean checkRead(Field operand, Scope scope, Span span, String verb) {
        return Sensitive.checkRead(a, operand, scope, span, verb);
    }

    @Override
    public boolean checkRecursive(Field operand, Scope scope, Span span, Predicate<String> names, boolean skipHidden,
            boolean follow) {
        return Sensitive.checkRecursive(a, operand, scope, span, names, skipHidden, follow);
    }

    @Override
    public void write(Field target, Scope scope, Span span) {
        Redirects.write(a, target, scope, span);
    }

    @Override
    public void optionValue(Invocation inv, OptionParser.Opt o) {
        OptionValues.check(a, inv, o);
    }

    @Override
    public void optionCode(Invocation inv, OptionParser.Parsed parsed) {
        OptionValues.judgeCode(a, inv, parsed);
    }
}
