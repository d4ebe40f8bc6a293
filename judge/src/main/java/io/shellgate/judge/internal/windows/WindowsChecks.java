package io.shellgate.judge.internal.windows;

/**
 * Ids of the built-in checks of the PowerShell and cmd judges: the bash judge's ids where the
 * meaning is the same, and a few of their own. All ask; they cannot be disabled.
 */
public final class WindowsChecks {

    public static final String NOT_READ_ONLY = "not-read-only";
    public static final String OPTION_NOT_PERMITTED = "option-not-permitted";
    public static final String DYNAMIC_COMMAND = "dynamic-command";
    public static final String DYNAMIC_ARGUMENT = "dynamic-argument";
    public static final String DYNAMIC_CODE = "dynamic-code";
    public static final String UNTRUSTED_PROGRAM = "untrusted-program";
    public static final String SENSITIVE_PATH = "sensitive-path";
    public static final String WRITES_FILE = "writes-file";
    public static final String ENVIRONMENT = "environment-assignment";
    public static final String PRINTS_ENVIRONMENT = "prints-environment";
    public static final String SCRIPT_FILE = "script-file";
    public static final String STDIN_CODE = "stdin-code";
    public static final String SHELL_STATE = "shell-state";
    public static final String PARSE_ERROR = "parse-error";
    public static final String UNUSUAL_CHARACTERS = "unusual-characters";
    public static final String TIME_BUDGET = "time-budget";
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
