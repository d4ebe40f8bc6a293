package io.shellgate.interceptor.internal;

import static net.bytebuddy.matcher.ElementMatchers.isPrivate;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.scaffold.InstrumentedType;
import net.bytebuddy.dynamic.scaffold.MethodGraph;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.pool.TypePool;

/**
 * Adds the gate's advice to the bytes of {@code java.lang.ProcessImpl} (every route to a new
 * process reaches its static {@code start}) and {@code java.lang.ProcessBuilder} ({@code
 * startPipeline}, so that a pipeline is refused before any stage starts). The class format stays
 * as it was (no new members), so the same code serves a first load and a retransformation.
 */
final class Instrumenter {

    static {
        // ByteBuddy is relocated, and so is this string: it names the relocated copy's switch.
        // Safe mode keeps it away from sun.misc.Unsafe (Java 25 warns); it only makes bytes here.
        System.setProperty("net.bytebuddy.safe", "true");
    }

    private static final String START = "io.shellgate.interceptor.internal.ProcessAdvice$Start";
    private static final String PIPELINE = "io.shellgate.interceptor.internal.ProcessAdvice$Pipeline";
    private static final String READY = "io.shellgate.interceptor.internal.ProcessAdvice$Ready";

    private Instrumenter() {}

    static byte[] transform(String internalName, byte[] bytes) {
        String name = internalName.replace('/', '.');
        // every type is described from class files, never loaded: the class being transformed is
        // itself being loaded right now (loading it again would be a ClassCircularityError)
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, bytes),
                ClassFileLocator.ForClassLoader.of(Instrumenter.class.getClassLoader()),
                ClassFileLocator.ForClassLoader.ofBootLoader());
        TypePool pool = TypePool.Default.of(locator);
        AsmVisitorWrapper advice = name.equals("java.lang.ProcessImpl")
                ? Advice.to(pool.describe(START).resolve(), locator).on(named("start").and(isStatic()).and(takesArguments(5)))
                : new AsmVisitorWrapper.Compound(
                        Advice.to(pool.describe(PIPELINE).resolve(), locator).on(named("startPipeline").and(isStatic())
                                .and(takesArguments(1))),
                        Advice.to(pool.describe(READY).resolve(), locator).on(named("start").and(isPrivate())
                                .and(takesArguments(1))));
        return new ByteBuddy()
                .with(TypeValidation.DISABLED)
                .with(Implementation.Context.Disabled.Factory.INSTANCE)
                .with(InstrumentedType.Factory.Default.FROZEN)
                .with(MethodGraph.Compiler.ForDeclaredMethods.INSTANCE)
                .redefine(pool.describe(name).resolve(), locator)
                .visit(advice)
                .make(pool)
                .getBytes();
    }
}
