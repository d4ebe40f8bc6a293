// shellgate's plugin for OpenCode (written by `shellgate setup opencode`; `--remove` takes it out).
// Before each tool call it asks shellgate, through shellgate-hook and the warm judge server, and
// refuses the call when shellgate refuses it or gives no answer: a gate that cannot answer never
// lets a command through.
import { spawn } from "node:child_process"

// the hook command: set by shellgate setup
const HOOK = ["shellgate-hook", "opencode"]

function relay(input) {
  return new Promise((resolve) => {
    let child
    try {
      child = spawn(HOOK[0], HOOK.slice(1), { stdio: ["pipe", "pipe", "pipe"] })
    } catch (e) {
      resolve({ code: -1, out: "", err: String(e) })
      return
    }
    const out = []
    const err = []
    child.stdout.on("data", (d) => out.push(d))
    child.stderr.on("data", (d) => err.push(d))
    child.on("error", (e) => resolve({ code: -1, out: "", err: String(e) }))
    child.on("close", (code, signal) =>
      resolve({ code: code ?? -1, out: Buffer.concat(out).toString("utf8"), err: Buffer.concat(err).toString("utf8") + (signal ?? "") }))
    child.stdin.on("error", () => {})
    child.stdin.end(input)
  })
}

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
