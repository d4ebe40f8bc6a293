package io.shellgate.judge;

import java.nio.file.Path;
import java.util.Map;

/** Prints the verdict for each argument (a development aid). */
public final class JudgeDump {
    public static void main(String[] args) throws Exception {
        Judge judge = Judges.defaults();
        boolean examples = System.getenv("EXAMPLES") != null;
        Dialect dialect = System.getenv("DIALECT") == null ? Dialect.BASH : Dialect.parse(System.getenv("DIALECT"));
        for (String a : args) {
            String text = a.replace("\\n", "\n");
            JudgeRequest request = examples
                    ? io.shellgate.judge.internal.analysis.JudgeEngine.exampleRequest(text, dialect)
                    : new JudgeRequest(text, dialect, Path.of(System.getProperty("user.dir")), System.getenv());
            Verdict v = judge.judge(request);
            System.out.println(v.tier().id().toUpperCase() + "  " + text.replace("\n", "⏎"));
            for (Reason r : v.reasons()) {
                System.out.println("     " + r.tier().id() + " " + r.rule() + ": " + r.message());
            }
        }
        if (System.getenv("VERIFY") != null) {
            Judges.verifyAllExamples(io.shellgate.rules.PolicyLoader.defaults());
            System.out.println("all examples pass");
        }
    }
}
