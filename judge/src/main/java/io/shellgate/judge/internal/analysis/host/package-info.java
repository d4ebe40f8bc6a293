/** The machine the judge asks: files, directories, PATH, git repositories, and views of them for examples and memos. */
package io.shellgate.judge.internal.analysis.host;
