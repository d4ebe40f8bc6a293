package io.shellgate.reviewer.model;

import java.time.Instant;
import java.util.List;

/**
 * An ask waiting for a person, as {@code shellgate approvals --watch} shows it.
 *
 * @param id the one-time id an answer must name
 * @param since when it started waiting
 * @param until when it will be refused for want of an answer
 * @param entry the entry point id ({@code shell-c}, {@code javaagent}, ...)
 * @param pid the process that would run the command
 * @param detail more about who asked (a JVM's main class, the program that started the shell), may be empty
 * @param session the session an "always for this session" answer is for, may be empty
 * @param cwd where it would run
 * @param command the command line
 * @param reasons why the judge asked
 */
public record Waiting(String id, Instant since, Instant until, String entry, long pid, String detail, String session,
        String cwd, String command, List<String> reasons) {

    public Waiting {
        reasons = List.copyOf(reasons);
    }
}
