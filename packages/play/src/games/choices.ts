import { type Key, t } from "../i18n/index.ts"
import { selectionChanged } from "../changes.ts"
import { btn, el, pressed } from "../dom.ts"
import { times } from "../money.ts"
import type { Stage } from "../stages.ts"
import { S } from "../state.ts"
import type { GameView } from "./view.ts"

/** A choice: the selection it sends, its label and its class (colour). */
export type Choice = readonly [value: unknown, label: Key | (() => string), cls: string]

const payOf = (selection: unknown): string => {
  const line = (S.rules[S.game]?.payouts ?? []).find((p) => p.selection === selection)
  return line === undefined ? "" : times(line.multiplier)
}

/** A game played by picking one of a few buttons, each showing what it pays; the first is picked to begin with. */
export const choices = (options: ReadonlyArray<Choice>, stage: Stage, hint: Key = "makePick"): GameView => ({
  stage,
  hint: () => t(hint),
  controls: (box) => {
    const row = el("div", "choices c" + options.length)
    row.setAttribute("role", "group")
    row.setAttribute("aria-label", t("yourPick"))
    for (const [value, label, cls] of options) {
      const b = btn("choice " + cls)
      b.dataset["value"] = JSON.stringify(value)
      pressed(b, false)
      b.append(el("span", "lbl", typeof label === "function" ? label() : t(label)))
      const m = payOf(value)
      if (m !== "") b.append(el("span", "mul", m))
      b.addEventListener("click", () => {
        if (S.busy) return
        S.sel = value
        for (const o of row.children) pressed(o, o === b)
        selectionChanged()
      })
      row.append(b)
    }
    const first = options[0]
    if (first !== undefined && row.firstElementChild !== null) {
      S.sel = first[0]
      pressed(row.firstElementChild, true)
    }
    box.append(row)
  },
  selection: () => S.sel
})
