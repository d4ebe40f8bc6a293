package io.shellgate.rules;

import io.shellgate.client.FileQuestion;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether a path exists itself, a link included (the {@code lexists} question), in one system call.
 *
 * <p>Java has no way to ask that of a path that is not there without an exception: a
 * {@code NOFOLLOW_LINKS} look at a missing name throws, with a stack trace through the judge. Every
 * PATH directory searched for a name, and for a Windows program every one of its extensions in
 * every directory, is such a look, so that was most of what judging a PowerShell line cost. On
 * Linux this asks {@code faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW)} through the C
 * library (its answer is the one {@link java.nio.file.Files#exists} without following links gives:
 * true when the name is there, a dangling link included; false when it is not or cannot be looked
 * at). Elsewhere, or where the C library cannot be called, it asks as the protocol's clients do
 * ({@link FileQuestion#LEXISTS}).
 */
final class LinkExistence {

    private static final int AT_FDCWD = -100;
    private static final int F_OK = 0;
    private static final int AT_SYMLINK_NOFOLLOW = 0x100;

    private static final MethodHandle FACCESSAT = faccessat();

    private LinkExistence() {}

    /** "true" or "false", in the protocol's words. */
    static String answer(Path path) {
        if (FACCESSAT == null) {
            return FileQuestion.LEXISTS.answer(path);
        }
        // a relative path is relative to this process's directory both ways; a name too long is not
        // there both ways (ENAMETOOLONG, an IOException); a Path never holds a NUL
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment name = arena.allocateFrom(path.toString());
            int result = (int) FACCESSAT.invokeExact(AT_FDCWD, name, F_OK, AT_SYMLINK_NOFOLLOW);
            return Boolean.toString(result == 0);
        } catch (Throwable e) {
            return FileQuestion.LEXISTS.answer(path);
        }
    }

    /** Whether the one-call check is used here (Linux, the C library callable). */
    static boolean isNative() {
        return FACCESSAT != null;
    }

    private static MethodHandle faccessat() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("faccessat").map(f -> linker.downcallHandle(f, FunctionDescriptor.of(
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)))
                    .orElse(null);
        } catch (Throwable e) {
            // no native access granted, or no such function: the portable way
            return null;
        }
    }
}
