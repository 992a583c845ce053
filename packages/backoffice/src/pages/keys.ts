import { call } from "../api.ts"
import { announce, h, section, table } from "../dom.ts"
import { form, plain } from "../form.ts"
import { go, when } from "../state.ts"
import type { ApiKeys, Issued } from "../types.ts"

/** API keys: issue one (its secret shown once), revoke one, and when each was last used. */
export const keys = async (main: HTMLElement): Promise<void> => {
  const shownOnce = h("div", { id: "issued", class: "once", hidden: true, tabindex: -1 })
  const issue = form("issue", [
    { name: "prefix", label: "Kind", type: "select", value: "sv_live", options: [["sv_live", "Live: real money and demo"], ["sv_test", "Test: demo only"]] }
  ], "Issue a key", async (f) => {
    const r = await call<Issued>("POST", "/api-keys", { prefix: f.value("prefix") })
    if (!r.ok) return f.fail(r.problem)
    shownOnce.replaceChildren(
      h("h3", {}, "Your new key"),
      h("p", {}, "Copy it now: it is shown only once. Send it as the ", h("code", {}, "sv-api-key"), " header."),
      h("p", {}, h("code", { id: "new-key", class: "secret" }, r.body.apiKey)),
      h("button", { type: "button", class: "secondary", onclick: () => void navigator.clipboard?.writeText(r.body.apiKey).then(() => announce("Copied.")) }, "Copy"),
      h("button", { type: "button", class: "secondary", onclick: () => go("/keys") }, "I have copied it")
    )
    shownOnce.hidden = false
    shownOnce.focus()
  })
  const r = await call<ApiKeys>("GET", "/api-keys")
  if (!r.ok) return void main.append(section("Issue a key", issue.el, shownOnce), h("p", { class: "err", role: "alert" }, plain(r.problem)))
  const revoke = (slug: string) =>
    h("button", {
      type: "button",
      class: "danger small",
      "aria-label": `Revoke the key ending ${slug}`,
      onclick: async () => {
        if (!confirm("Revoke this key? Calls with it are refused at once.")) return
        const done = await call<null>("DELETE", `/api-keys/${encodeURIComponent(slug)}`)
        announce(done.ok ? "Key revoked." : plain(done.problem))
        if (done.ok) go("/keys")
      }
    }, "Revoke")
  main.append(
    section("Issue a key", issue.el, shownOnce),
    table("Your keys", ["Key", "Issued", "Last used", "State"], r.body.data.map((key) => [
      h("code", {}, `${key.prefix}.…${key.slug.slice(-6)}`),
      when(key.createdAt),
      key.lastUsedAt === undefined ? "never" : when(key.lastUsedAt),
      key.revokedAt === undefined ? revoke(key.slug) : `revoked ${when(key.revokedAt)}`
    ]))
  )
}
