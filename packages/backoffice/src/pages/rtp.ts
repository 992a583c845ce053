import { definitions } from "@gateway/domain/games/Definitions"
import { defaultProfit, maxProfit, minProfit } from "@gateway/domain/games/RtpRange"
import { call } from "../api.ts"
import { announce, h, section } from "../dom.ts"
import { form, plain } from "../form.ts"
import type { Settings } from "../types.ts"

const rtpOf = (profit: number): string => (100 - profit).toFixed(2)

/** RTP per game: the new values are reviewed (old → new) before they are saved. */
export const rtp = async (main: HTMLElement): Promise<void> => {
  const r = await call<Settings>("GET", "/settings")
  if (!r.ok) return void main.append(h("p", { class: "err", role: "alert" }, plain(r.problem)))
  let current = r.body
  const profitOf = (game: typeof definitions[number]): number => current[game.profitField] ?? defaultProfit
  const review = h("div", { id: "rtp-review", class: "review", hidden: true, tabindex: -1 })
  const f = form("rtp", definitions.map((game) => ({
    name: game.profitField,
    label: `${game.name}: RTP in %`,
    value: rtpOf(profitOf(game)),
    inputmode: "decimal",
    hint: `${100 - maxProfit} to ${100 - minProfit}; now ${rtpOf(profitOf(game))} %.`
  })), "Review the changes", async (f) => {
    const changes = definitions.flatMap((game) => {
      const field = game.profitField
      const typed = f.value(field).replace(",", ".").replace("%", "")
      const rtp = Number(typed)
      if (typed === "" || !Number.isFinite(rtp) || rtp < 100 - maxProfit || rtp > 100 - minProfit) {
        f.error(field, `Enter an RTP from ${100 - maxProfit} to ${100 - minProfit}.`)
        return []
      }
      const profit = Math.round((100 - rtp) * 100) / 100
      return profit === profitOf(game) ? [] : [{ game, field, profit }]
    })
    if (f.el.querySelector("[aria-invalid]") !== null) return
    if (changes.length === 0) return f.done("No RTP changed.")
    const save = h("button", {
      type: "button",
      onclick: async () => {
        save.disabled = true
        const saved = await call<Settings>("PUT", "/settings", Object.fromEntries(changes.map((c) => [c.field, c.profit])))
        save.disabled = false
        if (!saved.ok) return f.fail(saved.problem)
        current = saved.body
        review.hidden = true
        f.done("Saved: the new RTP applies to rounds from now on.")
        announce("RTP saved.")
      }
    }, "Save these changes")
    review.replaceChildren(
      h("h3", {}, "Check before saving"),
      h("ul", {}, ...changes.map((c) => h("li", {}, `${c.game.name}: ${rtpOf(profitOf(c.game))} % → ${rtpOf(c.profit)} %`))),
      h("div", { class: "actions" }, save, h("button", { type: "button", class: "secondary", onclick: () => (review.hidden = true) }, "Cancel"))
    )
    review.hidden = false
    review.focus()
  })
  main.append(section("Return to player per game", h("p", { class: "hint" }, "The share of stakes a game pays back over time. The house edge is 100 − RTP."), f.el, review))
}
