package io.shellgate.judge.internal.windows;

import io.shellgate.judge.internal.analysis.model.Checks;

/**
 * Ids of the built-in checks of the PowerShell and cmd judges: the bash judge's ids ({@link Checks}, declared
 * once there) where the meaning is the same, and a few of their own. All ask; they cannot be disabled.
 */
public final class WindowsChecks {

    public static final String NOT_READ_ONLY = Checks.NOT_READ_ONLY;
    public static final String OPTION_NOT_PERMITTED = Checks.OPTION_NOT_PERMITTED;
    public static final String DYNAMIC_COMMAND = Checks.DYNAMIC_COMMAND;
    public static final String DYNAMIC_ARGUMENT = Checks.DYNAMIC_ARGUMENT;
    public static final String DYNAMIC_CODE = Checks.DYNAMIC_CODE;
    public static final String UNTRUSTED_PROGRAM = Checks.UNTRUSTED_PROGRAM;
    public static final String SENSITIVE_PATH = Checks.SENSITIVE_PATH;
    public static final String WRITES_FILE = Checks.WRITES_FILE;
    public static final String ENVIRONMENT = Checks.ENVIRONMENT;
    public static final String PRINTS_ENVIRONMENT = Checks.PRINTS_ENVIRONMENT;
    public static final String SCRIPT_FILE = Checks.SCRIPT_FILE;
    public static final String STDIN_CODE = Checks.STDIN_CODE;
    public static final String SHELL_STATE = Checks.SHELL_STATE;
    public static final String PARSE_ERROR = Checks.PARSE_ERROR;
    public static final String UNUSUAL_CHARACTERS = Checks.UNUSUAL_CHARACTERS;
    public static final String TIME_BUDGET = Checks.TIME_BUDGET;
    public static final String DOTNET_CALL = "dotnet-call";
    public static final String ENCODED_COMMAND = "encoded-command";
    public static final String NETWORK_PATH = "network-path";
    public static final String SECRET_VARIABLE = "secret-variable";

    private WindowsChecks() {}

    /** The first character PowerShell and cmd may not read as shellgate does (controls, format and private-use characters), or -1. */
    public static int unusualCharacter(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int type = Character.getType(c);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f || type == Character.FORMAT
                    || type == Character.PRIVATE_USE || type == Character.SURROGATE && !validSurrogate(text, i)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean validSurrogate(String text, int i) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
        }
        return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
    }
}
