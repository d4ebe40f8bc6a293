#!/usr/bin/env bash
# Wall time of a hook call for the agents added with Copilot CLI, OpenCode, Kilo and Pi, against a
# warm judge server: Copilot CLI's command hook (`shellgate-hook copilot-cli` as a whole process, its
# own input shape) and the round trip of shellgate's OpenCode plugin (also Kilo's) and Pi extension
# inside a node process, timed from the call of the plugin's handler to its return: the plugin keeps
# one `shellgate-hook --serve` for the session, as it does in the agent; each run is a new node
# process whose plugin has answered two calls before the timed one (warm). For scale: /bin/true,
# Claude Code's hook, and the server's own answer to the same hook request (one TCP exchange from
# node, no plugin and no client process). All cases take turns, run after run. Prints every case's
# median, min and max (milliseconds).
# Usage: benchmarks/agent-plugins.sh [RUNS]   (after the launcher is packaged; needs node and a JDK 25)
# With WARMUP=N, the server answers N hook calls before the timed runs (50 unless set): a server's
# JIT keeps compiling the request path for its first few hundred calls.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}
sg=$PWD/launcher/target/shellgate
client=$PWD/launcher/target/shellgate-hook
# the plugin files as the build puts them together (launcher/src/main/js: each agent's part and the relay)
resources=$PWD/launcher/target/classes/io/shellgate/launcher/internal
[ -x "$sg" ] && [ -x "$client" ] || { echo "package the launcher first (it makes shellgate-hook where it finds gcc)" >&2; exit 1; }
command -v node > /dev/null || { echo "node is not on PATH" >&2; exit 1; }

scratch=$(mktemp -d)
export SHELLGATE_RUN_DIR=$scratch/run SHELLGATE_CACHE_DIR=$scratch/cache SHELLGATE_STATE_DIR=$scratch/state
export SHELLGATE_SHELL=/bin/bash HOME=$scratch/home
mkdir -p "$HOME" "$scratch/work"
cleanup() {
    if [ -r "$SHELLGATE_RUN_DIR/server.pid" ]; then kill "$(cat "$SHELLGATE_RUN_DIR/server.pid")" 2>/dev/null || true; fi
    rm -rf "$scratch"
}
trap cleanup EXIT
cd "$scratch/work"

# the plugin and the extension as shellgate setup writes them
sed "s|^const HOOK = .*|const HOOK = [\"$client\", \"opencode\"]|" "$resources/shellgate-opencode.js" > "$scratch/opencode.mjs"
sed "s|^const HOOK = .*|const HOOK = [\"$client\", \"kilo\"]|" "$resources/shellgate-opencode.js" > "$scratch/kilo.mjs"
sed "s|^const HOOK = .*|const HOOK = [\"$client\", \"pi\"]|" "$resources/shellgate-pi.js" > "$scratch/pi.mjs"
# time.mjs AGENT COMMAND: loads the plugin, warms it with two calls, prints one call's microseconds
cat > "$scratch/time.mjs" <<'JS'
const [agent, command] = process.argv.slice(2)
let call
if (agent === "opencode" || agent === "kilo") {
  const hooks = await (await import(`${process.env.PLUGIN_DIR}/${agent}.mjs`)).Shellgate({ directory: process.cwd() })
  call = (c) => hooks["tool.execute.before"]({ tool: "bash", sessionID: "ses_bench", callID: "call_1" }, { args: { command: c } })
  if (command.startsWith("read ")) {
    // a tool shellgate does not judge (the plugin still asks): the relay's own cost, nearly
    call = (c) => hooks["tool.execute.before"]({ tool: "read", sessionID: "ses_bench", callID: "call_1" }, { args: { filePath: c } })
  }
} else if (agent === "server") {
  // the server's answer alone: the request shellgate-hook would send, over one TCP connection
  const { readFileSync } = await import("node:fs")
  const net = await import("node:net")
  const run = process.env.SHELLGATE_RUN_DIR
  const port = Number(readFileSync(run + "/server.port", "utf8").trim())
  const token = readFileSync(run + "/server.token", "utf8").trim()
  const environ = Object.entries(process.env).map(([k, v]) => `${k}=${v}`)
  call = (c) => new Promise((resolve, reject) => {
    const input = JSON.stringify({ hook_event_name: "tool.execute.before", tool_name: "bash", tool_input: { command: c }, cwd: process.cwd(), session_id: "ses_bench" })
    const s = net.connect(port, "127.0.0.1", () => s.write(JSON.stringify({ v: 1, op: "hook", agent: "opencode", caller: process.pid, cwd: process.cwd(), input, environ, interim: true, token }) + "\n"))
    let got = ""
    s.setEncoding("utf8")
    s.on("data", (d) => { got += d; if (got.includes("\n")) { s.destroy(); const a = JSON.parse(got.slice(0, got.indexOf("\n"))); if (JSON.parse(a.stdout).decision !== "allow") { reject(new Error("refused")) } else { resolve() } } })
    s.on("error", reject)
  })
} else {
  let handler
  ;(await import(process.env.PLUGIN_DIR + "/pi.mjs")).default({ on: (name, fn) => { handler = fn } })
  call = (c) => handler({ toolName: "bash", toolCallId: "call_1", input: { command: c } }, { cwd: process.cwd(), hasUI: false })
}
await call("ls -la"); await call("ls -la")
const start = process.hrtime.bigint()
let refused = false
try { const r = await call(command); refused = r !== undefined && r.block === true } catch { refused = true }
const took = (process.hrtime.bigint() - start) / 1000n
if (refused !== command.startsWith("rm")) { console.error("unexpected answer for " + command); process.exit(1) }
console.log(String(took))
JS
export PLUGIN_DIR=$scratch

copilot() {
    printf '{"sessionId":"0b7f6a52-1d2e-4c3b-9a8f-112233445566","timestamp":1796302287591,"cwd":"%s","toolName":"bash","toolArgs":{"command":"%s","description":"Run the command the task needs next"}}' "$PWD" "$1"
}
claude() {
    printf '{"session_id":"0b7f6a52-1d2e-4c3b-9a8f-112233445566","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}' "$PWD" "$1"
}

"$sg" serve --idle 60 < /dev/null > /dev/null 2>&1 &
for ((i = 0; i < 200; i++)); do
    [ -r "$SHELLGATE_RUN_DIR/server.port" ] && break
    sleep 0.1
done
for ((i = 0; i < ${WARMUP:-50}; i++)); do "$client" claude-code <<< "$(claude "ls -la w-$i")" > /dev/null; done

names=("/bin/true (a process start, for scale)"
    "shellgate-hook claude-code, allow, a new command each run (for scale)"
    "shellgate-hook copilot-cli, allow, a new command each run"
    "shellgate-hook copilot-cli, deny"
    "OpenCode plugin round trip, allow, a new command (in node)"
    "OpenCode plugin round trip, deny (in node)"
    "Kilo plugin round trip, allow, a new command (in node)"
    "OpenCode plugin round trip, a read (not judged; in node)"
    "Pi extension round trip, allow, a new command (in node)"
    "the server's hook answer alone, allow (one TCP exchange from node)")
declare -a took
for ((r = 0; r < runs; r++)); do
    for ((c = 0; c < ${#names[@]}; c++)); do
        case $c in
            0|1|2|3)
                case $c in
                    0) text= ; cmd=(/bin/true) ;;
                    1) text=$(claude "ls -la src/a-$r") ; cmd=("$client" claude-code) ;;
                    2) text=$(copilot "ls -la src/b-$r") ; cmd=("$client" copilot-cli) ;;
                    3) text=$(copilot "rm -rf ~") ; cmd=("$client" copilot-cli) ;;
                esac
                start=$EPOCHREALTIME
                "${cmd[@]}" <<< "$text" > /dev/null 2>&1 || true
                end=$EPOCHREALTIME
                lap=$(( ${end/./} - ${start/./} )) ;;
            4) lap=$(node "$scratch/time.mjs" opencode "ls -la src/c-$r") ;;
            5) lap=$(node "$scratch/time.mjs" opencode "rm -rf ~") ;;
            6) lap=$(node "$scratch/time.mjs" kilo "ls -la src/e-$r") ;;
            7) lap=$(node "$scratch/time.mjs" opencode "read src/g-$r") ;;
            8) lap=$(node "$scratch/time.mjs" pi "ls -la src/d-$r") ;;
            9) lap=$(node "$scratch/time.mjs" server "ls -la src/f-$r") ;;
        esac
        took[c]+=" $lap"
    done
done
echo "runs per case: $runs; warm-up calls: ${WARMUP:-50}; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((c = 0; c < ${#names[@]}; c++)); do
    # shellcheck disable=SC2086
    sorted=$(printf '%s\n' ${took[c]} | sort -n)
    n=$(wc -l <<< "$sorted")
    med=$(sed -n "$(( (n + 1) / 2 ))p" <<< "$sorted")
    printf '%-66s median %6d.%d ms   min %6d.%d   max %6d.%d\n' "${names[c]}" $((med / 1000)) $((med % 1000 / 100)) \
        $(($(head -n1 <<< "$sorted") / 1000)) $(($(head -n1 <<< "$sorted") % 1000 / 100)) \
        $(($(tail -n1 <<< "$sorted") / 1000)) $(($(tail -n1 <<< "$sorted") % 1000 / 100))
done
