/**
 * One program's grammar per file ({@code find}, {@code git}, {@code sed}, {@code jq}, ...), each a
 * {@code ProgramCheck} registered in {@code BuiltInChecks} and seeing the judgement only through
 * {@code CheckContext}.
 */
package io.shellgate.judge.internal.analysis.programs;
