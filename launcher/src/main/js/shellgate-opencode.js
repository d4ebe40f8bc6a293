// shellgate's plugin for OpenCode and Kilo (written by `shellgate setup opencode` or `shellgate setup kilo`;
// `--remove` takes it out).
// Before each tool call it asks shellgate, through shellgate-hook and the warm judge server, and
// refuses the call when shellgate refuses it or gives no answer: a gate that cannot answer never
// lets a command through.
import { spawn } from "node:child_process"
import { basename } from "node:path"

// the hook command: set by shellgate setup
const HOOK = ["shellgate-hook", "opencode"]

//@include shellgate-relay.js

export const Shellgate = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const call = JSON.stringify({
      hook_event_name: "tool.execute.before",
      tool_name: input.tool,
      tool_input: output.args ?? {},
      cwd: directory,
      session_id: input.sessionID ?? "",
    })
    const r = await relay(call)
    if (r.code !== 0) {
      throw new Error(`shellgate: refused: the gate gave no answer (${HOOK.join(" ")} exit ${r.code}): ${r.err.trim()}`)
    }
    if (r.out.trim() === "") {
      return // not a tool shellgate judges
    }
    let answer
    try {
      answer = JSON.parse(r.out)
    } catch {
      throw new Error("shellgate: refused: the gate's answer is not JSON")
    }
    if (answer.decision !== "allow") {
      throw new Error(typeof answer.reason === "string" && answer.reason !== "" ? answer.reason : "shellgate: refused")
    }
  },
})
