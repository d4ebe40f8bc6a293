/**
 * Judges a command line: {@code JudgeEngine} walks it with the analysis packages below, and
 * {@code BuiltInChecks} is the one registry of what the walk calls above itself (program checks,
 * the commands that run code, other dialects). The packages depend on each other one way, held by
 * {@code JudgePackagesTest}: {@code language} and {@code model}, then {@code host}, {@code options},
 * {@code policy}, {@code walk}, then {@code builtins} and {@code nested}, and {@code programs} beside them.
 */
package io.shellgate.judge.internal.analysis;
