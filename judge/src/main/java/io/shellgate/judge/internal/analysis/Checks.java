package io.shellgate.judge.internal.analysis;

/**
 * Ids of the judge's built-in checks. Unlike policy rules they cannot be disabled: they are what
 * "anything the judge cannot fully understand is never allowed" means in practice. All ask.
 */
final class Checks {

    static final String NOT_READ_ONLY = "not-read-only";
    static final String OPTION_NOT_PERMITTED = "option-not-permitted";
    static final String DYNAMIC_COMMAND = "dynamic-command";
    static final String DYNAMIC_ARGUMENT = "dynamic-argument";
    static final String UNTRUSTED_PROGRAM = "untrusted-program";
    static final String SENSITIVE_PATH = "sensitive-path";
    static final String WRITES_FILE = "writes-file";
    static final String NETWORK_REDIRECT = "network-redirect";
    static final String ENVIRONMENT = "environment-assignment";
    static final String DANGEROUS_VARIABLE = "dangerous-variable";
    static final String PRINTS_ENVIRONMENT = "prints-environment";
    static final String INLINE_CODE = "inline-code";
    static final String SCRIPT_FILE = "script-file";
    static final String DYNAMIC_CODE = "dynamic-code";
    static final String STDIN_CODE = "stdin-code";
    static final String SHELL_NOT_JUDGED = "shell-not-judged";
    static final String WRAPPER_OPTION = "wrapper-option";
    static final String GIT_REPO_CONFIG = "git-repo-config";
    static final String GIT_OPTION = "git-option";
    static final String GIT_CREDENTIAL = "git-credential";
    static final String PROJECT_CONFIG = "project-config";
    static final String PROGRAM_LANGUAGE = "program-language";
    static final String UNKNOWN_SYNTAX = "unknown-syntax";
    static final String PARSE_ERROR = "parse-error";
    static final String INPUT_TOO_LARGE = "input-too-large";
    static final String NESTING_TOO_DEEP = "nesting-too-deep";
    static final String TIME_BUDGET = "time-budget";
    static final String WORK_BUDGET = "work-budget";
    static final String INTERNAL_ERROR = "internal-error";
    static final String UNUSUAL_CHARACTERS = "unusual-characters";
    static final String ZSH_CODE = "zsh-code-execution";
    static final String SHELL_STATE = "shell-state";
    static final String INTERACTIVE_PROGRAM = "interactive-program";
    static final String IMPORTED_FUNCTION = "imported-function";

    private Checks() {}
}
