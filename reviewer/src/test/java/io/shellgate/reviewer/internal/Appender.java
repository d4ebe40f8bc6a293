package io.shellgate.reviewer.internal;

import java.nio.file.Path;

/**
 * A process that writes to shared files as the real ones do: {@code audit DIR TAG COUNT MAX_BYTES}
 * appends COUNT audit lines; {@code approve FILE TAG COUNT} appends COUNT approvals to a policy file.
 */
public final class Appender {

    public static void main(String[] args) throws Exception {
        String tag = args[2];
        int count = Integer.parseInt(args[3]);
        if (args[0].equals("audit")) {
            AuditLog log = new AuditLog(Path.of(args[1]), Long.parseLong(args[4]));
            String padding = "x".repeat(60);
            for (int i = 0; i < count; i++) {
                log.append(new long[] {System.currentTimeMillis()}, "\"tag\":\"" + tag + "\",\"i\":" + i + ",\"pad\":\"" + padding + "\"}");
            }
        } else {
            for (int i = 0; i < count; i++) {
                ApprovalWriter.appendExact(Path.of(args[1]), "touch " + tag + "-" + i, null, "process " + tag, null, null);
            }
        }
    }
}
