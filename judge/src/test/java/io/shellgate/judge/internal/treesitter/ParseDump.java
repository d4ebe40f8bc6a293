package io.shellgate.judge.internal.treesitter;

import io.shellgate.judge.internal.syntax.ScriptPrinter;

/** Prints the judge's syntax tree for each argument (a development aid). */
public final class ParseDump {
    public static void main(String[] args) {
        TreeSitterBashParser fast = new TreeSitterBashParser();
        JtreesitterBashParser reference = new JtreesitterBashParser();
        for (String a : args) {
            String text = a.replace("\\n", "\n");
            String f = ScriptPrinter.print(fast.parse(text, 1_000_000_000L));
            String r = ScriptPrinter.print(reference.parse(text, 0));
            System.out.println(text.replace("\n", "⏎") + "\n   " + f + (f.equals(r) ? "" : "\n   REFERENCE DIFFERS: " + r));
            if (System.getenv("SEXP") != null) {
                System.out.println("   " + reference.sexp(text));
            }
        }
    }
}
