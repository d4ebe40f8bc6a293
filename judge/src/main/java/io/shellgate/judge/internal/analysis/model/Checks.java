package io.shellgate.judge.internal.analysis.model;

/**
 * Ids of the judge's built-in checks. Unlike policy rules they cannot be disabled: they are what
 * "anything the judge cannot fully understand is never allowed" means in practice. All ask.
 */
public final class Checks {

    public static final String NOT_READ_ONLY = "not-read-only";
    public static final String OPTION_NOT_PERMITTED = "option-not-permitted";
    public static final String DYNAMIC_COMMAND = "dynamic-command";
    public static final String DYNAMIC_ARGUMENT = "dynamic-argument";
    public static final String UNTRUSTED_PROGRAM = "untrusted-program";
    public static final String SENSITIVE_PATH = "sensitive-path";
    public static final String WRITES_FILE = "writes-file";
    public static final String NETWORK_REDIRECT = "network-redirect";
    public static final String ENVIRONMENT = "environment-assignment";
    public static final String DANGEROUS_VARIABLE = "dangerous-variable";
    public static final String PRINTS_ENVIRONMENT = "prints-environment";
    public static final String INLINE_CODE = "inline-code";
    public static final String SCRIPT_FILE = "script-file";
    public static final String DYNAMIC_CODE = "dynamic-code";
    public static final String STDIN_CODE = "stdin-code";
    public static final String SHELL_NOT_JUDGED = "shell-not-judged";
    public static final String WRAPPER_OPTION = "wrapper-option";
    public static final String GIT_REPO_CONFIG = "git-repo-config";
    static final String GIT_OPTION = "git-option";
    public static final String GIT_CREDENTIAL = "git-credential";
    public static final String PROJECT_CONFIG = "project-config";
    public static final String PROGRAM_LANGUAGE = "program-language";
    public static final String UNKNOWN_SYNTAX = "unknown-syntax";
    public static final String PARSE_ERROR = "parse-error";
    public static final String INPUT_TOO_LARGE = "input-too-large";
    public static final String NESTING_TOO_DEEP = "nesting-too-deep";
    public static final String TIME_BUDGET = "time-budget";
    public static final String WORK_BUDGET = "work-budget";
    public static final String INTERNAL_ERROR = "internal-error";
    public static final String UNUSUAL_CHARACTERS = "unusual-characters";
    public static final String ZSH_CODE = "zsh-code-execution";
    public static final String SHELL_STATE = "shell-state";
    public static final String INTERACTIVE_PROGRAM = "interactive-program";
    public static final String IMPORTED_FUNCTION = "imported-function";

    private Checks() {}
}
