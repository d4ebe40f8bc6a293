package io.shellgate.rules;

/**
 * Where a policy entry was written: a file (or the built-in default) and a 1-based line and column.
 */
public record SourceLocation(String file, int line, int column) {

    /** A location with no line information, for entries that were not read from text. */
    public static SourceLocation of(String file) {
        return new SourceLocation(file, 0, 0);
    }

    @Override
    public String toString() {
        return line > 0 ? file + ":" + line + ":" + column : file;
    }
}
