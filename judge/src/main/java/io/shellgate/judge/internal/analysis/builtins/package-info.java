/** The shell's own builtins and options: set, shopt, export and declare, read, trap, unset. */
package io.shellgate.judge.internal.analysis.builtins;
