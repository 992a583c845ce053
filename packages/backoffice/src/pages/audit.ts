import type { AuditList } from "@gateway/client/api/Audit"
import { call, query } from "../api.ts"
import { type Child, h, table } from "../dom.ts"
import { plain } from "../form.ts"
import { when } from "../state.ts"

type Values = Readonly<Record<string, unknown>> | null

const show = (value: unknown): string => (value === undefined ? "–" : value === null ? "none" : typeof value === "string" ? value : JSON.stringify(value))

/** Each touched field as `name: before → after`. */
const changes = (before: Values, after: Values): Child => {
  const names = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])]
  if (names.length === 0) return "–"
  return h("ul", { class: "changes" }, ...names.map((name) => {
    const was = before === null ? undefined : show(before[name])
    const is = after === null ? "removed" : show(after[name])
    return was === undefined || was === is
      ? h("li", {}, h("b", {}, name), ": ", is)
      : h("li", {}, h("b", {}, name), ": ", h("span", { class: "before" }, was), " → ", h("span", { class: "after" }, is))
  }))
}

/** The audit log, newest first: who, when, from where, and the values before and after. */
export const audit = async (main: HTMLElement, page = 1): Promise<void> => {
  const r = await call<typeof AuditList.Encoded>("GET", "/audit" + query({ page, limit: 50 }))
  const body = h("div", { id: "audit" })
  main.replaceChildren(...[...main.children].filter((el) => el.tagName === "H1"), body)
  if (!r.ok) return void body.append(h("p", { class: "err", role: "alert" }, plain(r.problem)))
  const { data, meta } = r.body
  body.append(
    table(`Changes, page ${meta.currentPage} of ${Math.max(1, meta.totalPage)}`, ["When", "Who", "From", "What", "Before → after"],
      data.map((entry) => [when(entry.at), entry.actor, entry.address ?? "command line", entry.action, changes(entry.before, entry.after)])),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "secondary", disabled: meta.prevPage === 0, onclick: () => void audit(main, page - 1) }, "Newer"),
      h("button", { type: "button", class: "secondary", disabled: meta.nextPage === 0, onclick: () => void audit(main, page + 1) }, "Older"))
  )
}
