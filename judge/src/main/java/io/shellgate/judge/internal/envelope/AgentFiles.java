package io.shellgate.judge.internal.envelope;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where an agent keeps the files its envelope names, and checks that a named file is the agent's
 * own: the variable parts of an envelope are checked here, never trusted.
 */
final class AgentFiles {

    private AgentFiles() {}

    /** An absolute, normalised path for {@code text} other than the root, or null when it is not one. */
    static Path absolute(String text) {
        if (text == null || text.isEmpty() || text.indexOf('\0') >= 0 || text.indexOf('\n') >= 0) {
            return null;
        }
        try {
            Path p = Path.of(text);
            // ".." or "." in the text would let a name that looks right point elsewhere
            return p.isAbsolute() && p.getParent() != null && p.normalize().toString().equals(text) ? p : null;
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** The home directory of the environment, or null when HOME is not an absolute path. */
    static Path home(Map<String, String> env) {
        return absolute(env.get("HOME") == null ? null : trimSlash(env.get("HOME")));
    }

    /**
     * The directories Node's {@code os.tmpdir()} and the agents' own settings can name for
     * temporary files: {@code $TMPDIR}, {@code $TMP}, {@code $TEMP} (the first that is set, as
     * Node takes it), {@code extra} variables, and {@code /tmp}.
     */
    static Set<Path> tempDirs(Map<String, String> env, String... extra) {
        Set<Path> dirs = new LinkedHashSet<>();
        for (String name : new String[] {"TMPDIR", "TMP", "TEMP"}) {
            String v = env.get(name);
            if (v != null && !v.isEmpty()) {
                add(dirs, v);
                break;
            }
        }
        for (String name : extra) {
            String v = env.get(name);
            if (v != null && !v.isEmpty()) {
                add(dirs, v);
            }
        }
        dirs.add(Path.of("/tmp"));
        return dirs;
    }

    private static void add(Set<Path> dirs, String text) {
        Path p = absolute(trimSlash(text));
        if (p != null) {
            dirs.add(p);
        }
    }

    private static String trimSlash(String text) {
        String t = text;
        while (t.length() > 1 && t.endsWith("/")) {
            t = t.substring(0, t.length() - 1);
        }
        return t;
    }

    /**
     * Whether {@code path} is absent, or is a regular file (a directory when {@code directory})
     * that is not a symbolic link and belongs to the user this process runs as.
     */
    static boolean absentOrOwn(Path path, boolean directory) {
        return absentOr(path, directory, false);
    }

    /** Like {@link #absentOrOwn} for a directory, which may also belong to root (a system-wide install). */
    static boolean absentOrInstalled(Path dir) {
        return absentOr(dir, true, true);
    }

    private static boolean absentOr(Path path, boolean directory, boolean rootToo) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
        boolean kind = directory ? a.isDirectory() : a.isRegularFile();
        return kind && !a.isSymbolicLink() && ownedBy(path, rootToo);
    }

    /**
     * Whether {@code file} lies in {@code base}, and every directory between them and the file
     * itself pass {@link #absentOrOwn}: a link in between could point the name anywhere.
     */
    static boolean absentOrOwnBelow(Path base, Path file) {
        if (!file.startsWith(base) || file.equals(base)) {
            return false;
        }
        Path dir = base;
        for (Path part : base.relativize(file.getParent() == null ? file : file.getParent())) {
            if (part.toString().isEmpty()) {
                continue;
            }
            dir = dir.resolve(part);
            if (!absentOrOwn(dir, true)) {
                return false;
            }
        }
        return absentOrOwn(file, false);
    }

    /** Whether {@code path} exists (without following a final symbolic link). */
    static boolean exists(Path path) {
        return Files.exists(path, LinkOption.NOFOLLOW_LINKS);
    }

    private static boolean ownedBy(Path path, boolean rootToo) {
        try {
            String owner = Files.getOwner(path, LinkOption.NOFOLLOW_LINKS).getName();
            return owner.equals(System.getProperty("user.name")) || rootToo && owner.equals("root");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }
}
