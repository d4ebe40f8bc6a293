/**
 * Languages the judge parses without the shell: awk, jq, sed, the zsh syntax bash does not read,
 * and the plain words a regular expression's match must contain.
 */
package io.shellgate.judge.internal.analysis.language;
