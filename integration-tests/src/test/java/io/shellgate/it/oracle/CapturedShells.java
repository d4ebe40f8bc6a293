package io.shellgate.it.oracle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The shells a real agent started in the agents' tests, as captured in a resource under
 * {@code /agents/} ({@code === exec PROGRAM}, then {@code argv[i] = VALUE} lines, then {@code env}):
 * for each, the program and its last argument (the {@code -c} text).
 */
final class CapturedShells {

    /** One captured start: the program run and its last argument. */
    record Shell(String program, String last) {}

    private CapturedShells() {}

    static List<Shell> read(String resource) {
        String text;
        try (InputStream in = CapturedShells.class.getResourceAsStream(resource)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Shell> out = new ArrayList<>();
        for (String entry : text.split("(?m)^=== exec ")) {
            int env = entry.lastIndexOf("\nenv ");
            if (entry.isEmpty() || env < 0) {
                continue;
            }
            int firstLine = entry.indexOf('\n');
            // each value but the last ends with the newline before the next "argv[i] = "
            String[] pieces = entry.substring(firstLine + 1, env).split("(?m)^argv\\[\\d+\\] = ", -1);
            out.add(new Shell(entry.substring(0, firstLine), pieces[pieces.length - 1]));
        }
        return out;
    }
}
