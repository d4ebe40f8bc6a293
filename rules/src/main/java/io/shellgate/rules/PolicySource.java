package io.shellgate.rules;

/**
 * The text of one policy layer and where it came from.
 *
 * @param name the file path, or {@code <built-in default>}
 */
public record PolicySource(Layer layer, String name, String text) {}
