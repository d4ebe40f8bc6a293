#!/usr/bin/env bash
# Installs this shellgate folder for one user, at paths that do not change with the version:
#   PREFIX/lib/shellgate          this folder (launcher, jars, hook relay, Java runtime), a link to its copy
#   PREFIX/bin/shellgate          a link to the native client where the build made one (it relays -c to the
#                                 judge server and runs the launcher for everything else), else to the launcher;
#                                 PREFIX/bin/shellgate-hook to the native client (the hook relay under that name)
#   PREFIX/share/man/man1/shellgate.1 and PREFIX/share/bash-completion/completions/shellgate
# An upgrade replaces the folder in one step, so agents' hooks that name PREFIX/bin/shellgate-hook keep working.
set -euo pipefail

usage() {
    cat <<'USAGE'
usage: install.sh [--prefix DIR] [--uninstall]
  --prefix DIR   where to install (default ~/.local: ~/.local/bin/shellgate)
  --uninstall    remove what install.sh installed under the prefix
USAGE
}

prefix=${HOME:?install.sh needs HOME, or --prefix}/.local
remove=
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || { usage >&2; exit 2; }; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#--prefix=}; shift ;;
        --uninstall) remove=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
    esac
done
case $prefix in /*) ;; *) prefix=$PWD/$prefix ;; esac
src=$(cd "$(dirname "$0")" && pwd)
lib=$prefix/lib/shellgate

if [ -n "$remove" ]; then
    for f in "$prefix/bin/shellgate" "$prefix/bin/shellgate-hook"; do
        # only links into our folder: a file of the same name that is not ours stays
        if [ -L "$f" ] && [[ $(readlink "$f") == "$lib/"* ]]; then rm -f "$f"; fi
    done
    rm -f "$prefix/share/man/man1/shellgate.1" "$prefix/share/bash-completion/completions/shellgate"
    if [ -L "$lib" ]; then
        target=$(readlink "$lib")
        rm -f "$lib"
        case $target in .shellgate-*) rm -rf "${prefix:?}/lib/$target" ;; esac
    else
        rm -rf "$lib"
    fi
    echo "shellgate removed from $prefix"
    exit 0
fi

[ -x "$src/shellgate" ] && [ -f "$src/shellgate.jar" ] || { echo "install.sh: run it from an unpacked shellgate folder" >&2; exit 1; }
[ "$src" = "$lib" ] && { echo "install.sh: this folder is already the installed one ($lib)" >&2; exit 1; }
mkdir -p "$prefix/lib" "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/bash-completion/completions"
# PREFIX/lib/shellgate is a link to a folder of its own per install, switched by one rename: a hook that starts
# during an upgrade finds the old folder or the new one, never a half-copied one or none
stamp=$(date +%Y%m%d%H%M%S).$$
cp -a "$src" "$prefix/lib/.shellgate-$stamp"
previous=
if [ -L "$lib" ]; then
    previous=$(readlink "$lib")
elif [ -e "$lib" ]; then
    mv "$lib" "$prefix/lib/.shellgate-replaced.$$"
    previous=.shellgate-replaced.$$
fi
ln -s ".shellgate-$stamp" "$prefix/lib/.shellgate-link.$$"
if ! mv -T "$prefix/lib/.shellgate-link.$$" "$lib" 2>/dev/null; then
    rm -f "$lib"
    mv "$prefix/lib/.shellgate-link.$$" "$lib"
fi
case $previous in .shellgate-*) rm -rf "${prefix:?}/lib/$previous" ;; esac
# the native client, where there is one, is the command itself: shellgate -c then starts no bash of its own
if [ -e "$lib/shellgate-hook" ]; then
    ln -sfn "$lib/shellgate-hook" "$prefix/bin/shellgate"
    ln -sfn "$lib/shellgate-hook" "$prefix/bin/shellgate-hook"
else
    ln -sfn "$lib/shellgate" "$prefix/bin/shellgate"
fi
[ -f "$lib/man/shellgate.1" ] && cp "$lib/man/shellgate.1" "$prefix/share/man/man1/shellgate.1"
[ -f "$lib/completion/shellgate.bash" ] && cp "$lib/completion/shellgate.bash" "$prefix/share/bash-completion/completions/shellgate"
echo "shellgate installed in $lib"
echo "  command:   $prefix/bin/shellgate"
[ -e "$lib/shellgate-hook" ] && echo "  hook relay for agents' settings: $prefix/bin/shellgate-hook AGENT"
case ":$PATH:" in *":$prefix/bin:"*) ;; *) echo "  add $prefix/bin to PATH to run it as shellgate" ;; esac
