import { stopAutoplay } from "./autoplay.ts"
import { $, el } from "./dom.ts"
import { minutes, t } from "./i18n/index.ts"
import { money } from "./money.ts"
import { exitLink } from "./notice.ts"
import { S } from "./state.ts"

/**
 * The session clock and the reality check (CONTRACT §12): the page shows how
 * long the session has lasted and, when the launch set
 * `realityCheckMinutes`, every that many minutes stops to show the time and
 * the session's net result, with Continue or Leave (to the casino's page).
 * Time is the browser's, counted from when this tab opened the session.
 */

let timer: ReturnType<typeof setInterval> | undefined
let due = 0

const elapsedMinutes = (): number => Math.max(0, Math.floor((Date.now() - S.startedAt) / 60_000))
const signed = (net: bigint): string => (net > 0n ? "+" + money(net) : net < 0n ? "−" + money(-net) : money(net))

const show = (): void => {
  stopAutoplay()
  $("reality-text").textContent = t("realityText", { time: minutes(elapsedMinutes()), net: signed(S.net) })
  exitLink("reality-leave")
  $("reality").hidden = false
  $("reality-continue").focus()
}

const tick = (): void => {
  const clock = $("clock")
  const time = minutes(elapsedMinutes())
  const shown = el("span", "", time)
  shown.setAttribute("aria-hidden", "true")
  clock.replaceChildren(el("span", "sr", t("sessionTime", { time })), shown)
  clock.hidden = false
  if (S.reality > 0 && Date.now() - S.startedAt >= due && $("reality").hidden && $("notice").hidden) {
    due += S.reality * 60_000
    show()
  }
}

/** Starts the clock (and the checks, when the launch asked for them) for the session opened at `S.startedAt`. */
export const startClock = (): void => {
  if (timer !== undefined) clearInterval(timer)
  const every = S.reality * 60_000
  due = every > 0 ? (Math.floor((Date.now() - S.startedAt) / every) + 1) * every : 0
  tick()
  timer = setInterval(tick, 1000)
}

/** Wires Continue: the dialog closes and play goes on. */
export const setupReality = (): void => {
  $("reality-continue").addEventListener("click", () => {
    $("reality").hidden = true
    $("play").focus()
  })
}

/** Whether the reality check is on screen (it is modal: Escape does not close it, a choice does). */
export const realityOpen = (): boolean => !$("reality").hidden
