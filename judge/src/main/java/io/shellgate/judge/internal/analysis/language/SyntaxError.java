package io.shellgate.judge.internal.analysis.language;

/** Raised for text that is not a program of the language being read (awk, jq); its message says where. */
final class SyntaxError extends RuntimeException {
    SyntaxError(String message) {
        super(message);
    }
}
