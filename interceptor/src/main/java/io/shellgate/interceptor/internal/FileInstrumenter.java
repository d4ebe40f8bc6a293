package io.shellgate.interceptor.internal;

import static net.bytebuddy.matcher.ElementMatchers.isPrivate;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
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
 * Adds {@link FileAdvice} to the JDK's file classes: {@code FileOutputStream} and
 * {@code RandomAccessFile} (every {@code java.io} write opens through them), the Unix file-system
 * provider of {@code java.nio.file} (channels, streams, moves, copies, deletions, new directories
 * and links) and {@code java.io.File}'s own changes. The class format stays as it was.
 */
final class FileInstrumenter {

    private static final String ADVICE = "io.shellgate.interceptor.internal.FileAdvice$";

    private FileInstrumenter() {}

    static byte[] transform(String internalName, byte[] bytes) {
        // relocated ByteBuddy switches itself to safe mode in Instrumenter's initializer
        Instrumenter.class.getName();
        String name = internalName.replace('/', '.');
        ClassFileLocator locator = new ClassFileLocator.Compound(ClassFileLocator.Simple.of(name, bytes),
                ClassFileLocator.ForClassLoader.of(FileInstrumenter.class.getClassLoader()),
                ClassFileLocator.ForClassLoader.ofBootLoader());
        TypePool pool = TypePool.Default.of(locator);
        AsmVisitorWrapper advice = switch (name) {
            case "java.io.FileOutputStream" -> advice(pool, locator, "OpenStream").on(named("open").and(isPrivate()).and(takesArguments(2)));
            case "java.io.RandomAccessFile" -> advice(pool, locator, "OpenRandom").on(named("open").and(isPrivate()).and(takesArguments(2)));
            case "java.io.File" -> new AsmVisitorWrapper.Compound(
                    advice(pool, locator, "FileSelf").on(namedOneOf("delete", "mkdir", "createNewFile").and(takesArguments(0))),
                    advice(pool, locator, "FileRename").on(named("renameTo").and(takesArguments(1))));
            default -> new AsmVisitorWrapper.Compound(
                    advice(pool, locator, "Channel").on(namedOneOf("newByteChannel", "newFileChannel", "newAsynchronousFileChannel")),
                    advice(pool, locator, "FirstPath").on(namedOneOf("implDelete", "createDirectory", "createSymbolicLink",
                            "createLink")),
                    advice(pool, locator, "BothPaths").on(namedOneOf("move", "copy").and(takesArguments(3))));
        };
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

    private static Advice advice(TypePool pool, ClassFileLocator locator, String which) {
        return Advice.to(pool.describe(ADVICE + which).resolve(), locator);
    }
}
