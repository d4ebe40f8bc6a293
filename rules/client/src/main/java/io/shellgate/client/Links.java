package io.shellgate.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Paths as the kernel resolves them, for the guards of the gate's own files (the javaagent's and the hooks'). */
public final class Links {

    /** The most links the kernel follows in one path before it gives up (ELOOP). */
    public static final int MAX_LINKS = 40;

    private Links() {}

    /**
     * Where a write to {@code p} (absolute) lands, each link followed as the kernel follows it, name by name (a
     * dangling one names where the file would be made); null after {@link #MAX_LINKS} links or when a link cannot be
     * read, as the write would then fail or go where this cannot tell.
     */
    public static Path landing(Path p) {
        Deque<String> todo = new ArrayDeque<>();
        for (Path n : p) {
            todo.addLast(n.toString());
        }
        Path at = p.getRoot();
        int links = 0;
        while (!todo.isEmpty()) {
            String name = todo.pollFirst();
            if (name.equals(".") || name.isEmpty()) {
                continue;
            }
            if (name.equals("..")) {
                at = at.getParent() == null ? at : at.getParent();
                continue;
            }
            Path next = at.resolve(name);
            if (!Files.isSymbolicLink(next)) {
                at = next;
                continue;
            }
            if (++links > MAX_LINKS) {
                return null;
            }
            try {
                Path target = Files.readSymbolicLink(next);
                List<String> names = new ArrayList<>();
                for (Path n : target) {
                    names.add(n.toString());
                }
                for (int i = names.size() - 1; i >= 0; i--) {
                    todo.addFirst(names.get(i));
                }
                if (target.isAbsolute()) {
                    at = target.getRoot();
                }
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
        return at;
    }
}
