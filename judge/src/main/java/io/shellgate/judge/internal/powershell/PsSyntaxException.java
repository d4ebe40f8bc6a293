package io.shellgate.judge.internal.powershell;

/** PowerShell text the parser does not understand, at {@code position}. */
final class PsSyntaxException extends RuntimeException {

    final int position;

    PsSyntaxException(String message, int position) {
        super(message, null, false, false);
        this.position = position;
    }
}
