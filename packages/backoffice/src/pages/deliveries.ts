import { call, query } from "../api.ts"
import { announce, facts, h, section, table } from "../dom.ts"
import { form, plain } from "../form.ts"
import { go, when } from "../state.ts"
import type { Attempt, DeliveryDetail, DeliveryList, Ping } from "../types.ts"

const pre = (text: string) => h("pre", { class: "raw", tabindex: 0 }, text)
const headersText = (headers: Readonly<Record<string, string>>) => Object.entries(headers).map(([name, value]) => `${name}: ${value}`).join("\n")

/** A test ping sent now, its answer shown at once. */
const ping = (): HTMLElement => {
  const out = h("div", { id: "ping-result", role: "status" })
  const send = h("button", {
    type: "button",
    onclick: async () => {
      send.disabled = true
      out.textContent = "Sending…"
      const r = await call<Ping>("POST", "/webhook-test")
      send.disabled = false
      if (!r.ok) return void out.replaceChildren(h("p", { class: "err" }, plain(r.problem)))
      const p = r.body
      out.replaceChildren(
        h("p", { class: p.delivered ? "ok" : "err" }, p.delivered ? `Delivered: your server answered ${p.status ?? ""} in ${p.durationMs} ms.` : `Not delivered: ${p.error ?? `answer ${p.status ?? ""}`} (${p.durationMs} ms).`),
        p.body === undefined ? "" : pre(p.body)
      )
    }
  }, "Send a test ping")
  return section("Test ping", h("p", { class: "hint" }, "Sends a signed webhook.test to your wallet webhook URL now."), send, out)
}

/** The deliveries of a status (all by default), newest first, each linking to its attempts. */
export const deliveries = async (main: HTMLElement, status = ""): Promise<void> => {
  const list = h("div", { id: "delivery-list" })
  const filter = form("filter", [
    { name: "status", label: "Status", type: "select", value: status, options: [["", "Every status"], ["pending", "Pending"], ["delivered", "Delivered"], ["failed", "Failed"]] }
  ], "Show", async (f) => void load(f.value("status")))
  const load = async (wanted: string) => {
    const r = await call<DeliveryList>("GET", "/deliveries" + query({ status: wanted }))
    if (!r.ok) return void list.replaceChildren(h("p", { class: "err", role: "alert" }, plain(r.problem)))
    list.replaceChildren(table(`Deliveries (${r.body.data.length})`, ["When", "Type", "Status", "Tries", "Last answer"], r.body.data.map((d) => [
      h("a", { href: `#/deliveries/${encodeURIComponent(d.id)}` }, when(d.createdAt)),
      d.type,
      h("span", { class: `status ${d.status}` }, d.status),
      String(d.attempts),
      d.lastError ?? (d.lastStatus === undefined ? "–" : String(d.lastStatus))
    ])))
  }
  main.append(ping(), section("Deliveries", filter.el, list))
  await load(status)
}

const attemptView = (attempt: Attempt, i: number) =>
  h("section", { class: "attempt" },
    h("h3", {}, `Attempt ${i + 1}: ${when(attempt.at)}, ${attempt.durationMs} ms`),
    h("h4", {}, "Request"),
    pre(`${attempt.request.method} ${attempt.request.url}\n${headersText(attempt.request.headers)}\n\n${attempt.request.body}`),
    h("h4", {}, "Answer"),
    attempt.answer === undefined
      ? h("p", { class: "err" }, attempt.error ?? "No answer.")
      : pre(`${attempt.answer.status}\n${headersText(attempt.answer.headers)}\n\n${attempt.answer.body}`),
    attempt.answer !== undefined && attempt.error !== undefined ? h("p", { class: "err" }, attempt.error) : "")

/** One delivery: its message, each attempt's raw request and answer, and redeliver when it failed. */
export const delivery = async (main: HTMLElement, id: string): Promise<void> => {
  const r = await call<DeliveryDetail>("GET", `/deliveries/${encodeURIComponent(id)}`)
  if (!r.ok) return void main.append(h("p", { class: "err", role: "alert" }, plain(r.problem)))
  const d = r.body
  const redeliver = h("button", {
    type: "button",
    onclick: async () => {
      const done = await call<null>("POST", `/deliveries/${encodeURIComponent(id)}/redeliver`)
      announce(done.ok ? "Queued again: it is sent now." : plain(done.problem))
      if (done.ok) go(`/deliveries/${encodeURIComponent(id)}`)
    }
  }, "Redeliver")
  main.append(
    h("p", {}, h("a", { href: "#/deliveries" }, "← All deliveries")),
    section(`${d.type} ${d.id}`,
      facts([["Status", d.status], ["Tries", String(d.attempts)], ["Written", when(d.createdAt)]]),
      d.status === "failed" ? redeliver : "",
      h("h3", {}, "Message"), pre(d.body)),
    ...d.attemptLog.map(attemptView)
  )
}
