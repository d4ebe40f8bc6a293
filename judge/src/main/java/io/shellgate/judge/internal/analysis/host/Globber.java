package io.shellgate.judge.internal.analysis.host;

import com.google.re2j.Pattern;
import io.shellgate.judge.internal.analysis.model.Field;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Expands a file name pattern the way bash does by default: segment by segment, {@code *} and
 * {@code ?} never match a leading dot, no matches leaves the pattern as it is. A {@code **}
 * segment is expanded as globstar would (every directory below, at any depth) as well as the
 * single directory level it is without it: whether globstar is on where the line runs is not
 * known here, and the sensitive-path check needs every file the pattern may name.
 */
final class Globber {

    private Globber() {}

    static List<Path> expand(Path cwd, Field pattern, int limit) {
        if (pattern.hasUnknown()) {
            return null;
        }
        String text = pattern.text();
        boolean absolute = text.startsWith("/");
        List<Path> current = List.of(absolute ? Path.of("/") : cwd);
        String[] segments = text.split("/");
        int scanned = 0;
        for (String segment : segments) {
            if (segment.isEmpty()) {
                continue;
            }
            List<Path> next = new ArrayList<>();
            if (segment.equals(String.valueOf(Field.STAR) + Field.STAR)) {
                for (Path dir : current) {
                    if (!descendants(dir, next, limit)) {
                        return null;
                    }
                }
            } else if (!hasGlob(segment)) {
                for (Path p : current) {
                    next.add(p.resolve(Field.literal(segment).plain()));
                }
            } else {
                Pattern regex = Pattern.compile(toRegex(segment));
                boolean dotOk = segment.charAt(0) == '.';
                for (Path dir : current) {
                    if (!Files.isDirectory(dir)) {
                        continue;
                    }
                    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                        for (Path e : entries) {
                            if (++scanned > limit * 10) {
                                return null;
                            }
                            String name = e.getFileName().toString();
                            if ((dotOk || !name.startsWith(".")) && regex.matcher(name).matches()) {
                                next.add(e);
                                if (next.size() > limit) {
                                    return null;
                                }
                            }
                        }
                    } catch (IOException | SecurityException e) {
                        return null;
                    }
                }
            }
            current = next;
        }
        List<Path> out = new ArrayList<>();
        for (Path p : current) {
            if (Files.exists(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** Adds {@code dir} and every file and directory below it whose names do not start with a dot; false past the limit. */
    private static boolean descendants(Path dir, List<Path> out, int limit) {
        java.util.ArrayDeque<Path> queue = new java.util.ArrayDeque<>();
        queue.add(dir);
        out.add(dir);
        while (!queue.isEmpty()) {
            Path d = queue.poll();
            if (!Files.isDirectory(d, java.nio.file.LinkOption.NOFOLLOW_LINKS) && d != dir) {
                continue;
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
                for (Path e : entries) {
                    if (e.getFileName().toString().startsWith(".")) {
                        continue;
                    }
                    out.add(e);
                    if (out.size() > limit) {
                        return false;
                    }
                    queue.add(e);
                }
            } catch (IOException | SecurityException e) {
                // not readable: not read by the command either
            }
        }
        return true;
    }

    private static boolean hasGlob(String segment) {
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == Field.STAR || c == Field.QUESTION || c == Field.BRACKET) {
                return true;
            }
        }
        return false;
    }

    /** Segment patterns are short file names; the regex is built from them, not from the input text. */
    static String toRegex(String segment) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == Field.STAR) {
                sb.append("[^/]*");
            } else if (c == Field.QUESTION) {
                sb.append("[^/]");
            } else if (c == Field.BRACKET) {
                int close = segment.indexOf(']', i + 2);
                if (close < 0) {
                    sb.append("\\[");
                } else {
                    String body = segment.substring(i + 1, close);
                    if (body.startsWith("!") || body.startsWith("^")) {
                        body = "^" + body.substring(1);
                    }
                    sb.append('[').append(body.replace("\\", "\\\\").replace("[", "\\[")).append(']');
                    i = close;
                }
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return sb.toString();
    }
}
