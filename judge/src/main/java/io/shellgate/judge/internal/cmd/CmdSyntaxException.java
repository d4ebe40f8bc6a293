package io.shellgate.judge.internal.cmd;

import io.shellgate.judge.Span;

/** cmd text the parser does not understand. */
final class CmdSyntaxException extends RuntimeException {

    final Span span;

    CmdSyntaxException(String message, Span span) {
        super(message, null, false, false);
        this.span = span;
    }
}
