package io.shellgate.reviewer;

import java.util.List;

/**
 * What {@code shellgate log --verify} found in the audit log's hash chain.
 *
 * @param records how many records were read
 * @param firstSeq the oldest record's sequence number kept (records before it were rotated out); 0 when none
 * @param lastSeq the newest record's
 * @param problems every break found, where it is; empty when the chain is whole
 */
public record AuditReport(long records, long firstSeq, long lastSeq, List<String> problems) {

    public AuditReport {
        problems = List.copyOf(problems);
    }
}
