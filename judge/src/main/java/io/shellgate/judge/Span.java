package io.shellgate.judge;

/**
 * A range of characters of the judged command line, {@code start} inclusive, {@code end}
 * exclusive, in UTF-16 code units (Java string indices).
 */
public record Span(int start, int end) {

    public static final Span NONE = new Span(0, 0);

    public Span {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException("bad span " + start + ".." + end);
        }
    }

    /** The text this span covers in {@code line}, clipped to the line. */
    public String of(String line) {
        int s = Math.min(start, line.length());
        return line.substring(s, Math.min(Math.max(end, s), line.length()));
    }

    public boolean contains(Span other) {
        return start <= other.start && other.end <= end;
    }
}
