package io.shellgate.launcher.internal.terminal;

/** A terminal's size in character cells. */
public record WindowSize(int columns, int rows) {

    /** What a terminal whose size cannot be read is taken to be. */
    public static final WindowSize DEFAULT = new WindowSize(80, 24);
}
