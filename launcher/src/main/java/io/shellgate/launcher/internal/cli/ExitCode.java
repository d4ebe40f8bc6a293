package io.shellgate.launcher.internal.cli;

/** Every exit code of the shellgate command line, in one place (and in the README). */
public enum ExitCode {
    /** check: the command is allowed; other commands: success. */
    ALLOW(0),
    /** Bad usage: an unknown option, a missing command. */
    USAGE(2),
    /** A policy file is malformed, invalid, or its examples fail. */
    POLICY(3),
    /** Input could not be read, or an internal error. */
    ERROR(4),
    /** log --verify: the audit log was edited, or records are missing from it. */
    TAMPERED(5),
    /** check: the command needs review. */
    ASK(10),
    /** check: the command is refused. */
    DENY(20);

    private final int code;

    ExitCode(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }
}
