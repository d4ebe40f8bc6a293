/** Option grammars: how a program reads its options, and what a value of each kind accepts. */
package io.shellgate.judge.internal.analysis.options;
