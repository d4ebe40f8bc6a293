package io.shellgate.judge.internal.treesitter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Properties;

/**
 * Finds tree-sitter's native runtime and the bash grammar inside the jars from Maven Central and
 * extracts them once to a cache directory keyed by the artifact version.
 *
 * <p>Cache directory: {@code $SHELLGATE_CACHE_DIR}, else {@code $XDG_CACHE_HOME/shellgate}, else
 * {@code ~/.cache/shellgate}; libraries go to {@code native/<artifact>-<version>/}. A library is
 * written to a temporary file in that directory and moved into place atomically, so concurrent
 * first runs never see a half-written file and nothing is left behind.
 */
public final class NativeLibraries {

    private static final Properties VERSIONS = versions();

    private NativeLibraries() {}

    /** The tree-sitter runtime ({@code libtree-sitter}). */
    public static Path runtime() {
        return Holder.RUNTIME;
    }

    /** The bash grammar. */
    public static Path bash() {
        return Holder.BASH;
    }

    private static final class Holder {
        static final Path RUNTIME = extract("tree-sitter", VERSIONS.getProperty("runtime.version"), "tree-sitter");
        static final Path BASH = extract("tree-sitter-bash", VERSIONS.getProperty("bash.version"), "tree-sitter-bash");
    }

    /** The platform part of the library names in bonede's jars, such as {@code x86_64-linux-gnu}. */
    static String platform() {
        String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String cpu = switch (arch) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> throw new UnsupportedOperationException("no tree-sitter libraries for the CPU " + arch
                    + "; shellgate runs on x86_64 and aarch64");
        };
        if (os.contains("linux")) {
            return cpu + "-linux-gnu";
        } else if (os.contains("mac") || os.contains("darwin")) {
            return cpu + "-macos";
        } else if (os.contains("windows") && cpu.equals("x86_64")) {
            return cpu + "-windows";
        }
        throw new UnsupportedOperationException("no tree-sitter libraries for " + os + " on " + arch);
    }

    static String suffix() {
        String p = platform();
        return p.endsWith("macos") ? ".dylib" : p.endsWith("windows") ? ".dll" : ".so";
    }

    /** The cache directory shellgate uses. */
    public static Path cacheDir() {
        return io.shellgate.rules.Places.cache(System.getenv());
    }

    private static Path extract(String artifact, String version, String library) {
        String entry = "lib/" + platform() + "-" + library + suffix();
        Path dir = cacheDir().resolve("native").resolve(artifact + "-" + version);
        Path target = dir.resolve(platform() + "-" + library + suffix());
        try (InputStream in = NativeLibraries.class.getClassLoader().getResourceAsStream(entry)) {
            if (in == null) {
                throw new IllegalStateException("the library " + entry + " is missing from the classpath (it comes from "
                        + "io.github.bonede:" + artifact + ":" + version + ")");
            }
            if (Files.isRegularFile(target)) {
                return target;
            }
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, ".extract-", ".tmp");
            try {
                Files.copy(in, temp, StandardCopyOption.REPLACE_EXISTING);
                try {
                    Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException | FileAlreadyExistsException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + entry + " to " + dir
                    + " (set SHELLGATE_CACHE_DIR to a writable directory)", e);
        }
    }

    private static Properties versions() {
        Properties p = new Properties();
        try (InputStream in = NativeLibraries.class.getResourceAsStream("native.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
