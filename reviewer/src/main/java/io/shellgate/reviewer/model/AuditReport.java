package io.shellgate.reviewer.model;

import java.util.List;

/**
 * What {@code shellgate log --verify} found in the audit log's hash chain.
 *
 * @param records how many records were read
 * @param firstSeq the oldest record's sequence number kept; 0 when none
 * @param lastSeq the newest record's
 * @param rotated whether the records before {@code firstSeq} were rotated out (rather than removed, a problem)
 * @param problems every break found, where it is; empty when the chain is whole
 * @param torn every write that was cut short (a full disk), where it is: known gaps, not breaks
 */
public record AuditReport(long records, long firstSeq, long lastSeq, boolean rotated, List<String> problems, List<String> torn) {

    public AuditReport {
        problems = List.copyOf(problems);
        torn = List.copyOf(torn);
    }
}
