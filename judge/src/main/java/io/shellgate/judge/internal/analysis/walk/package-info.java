/**
 * The walk of a parsed line and the judgement of each simple command ({@code Analyzer},
 * {@code CommandJudge}), and the interfaces through which it reaches what lies above it:
 * {@code ProgramCheck} with its narrow {@code CheckContext}, {@code BuiltinCheck},
 * {@code CommandHandler}, {@code DialectJudge}.
 */
package io.shellgate.judge.internal.analysis.walk;
