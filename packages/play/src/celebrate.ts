import { $ } from "./dom.ts"
import { t } from "./i18n/index.ts"

/**
 * The win celebration: a burst over the game, below the stage (so the draw
 * it celebrates stays in sight), with the amount won, gone by
 * itself after a moment, at once on Skip, Escape or any click (which still
 * reaches what it clicked: the celebration never stands between the player
 * and the controls). With `prefers-reduced-motion` the style sheet shows it
 * without movement.
 */

let timer: ReturnType<typeof setTimeout> | undefined

/** Hides the celebration; true when one was on screen. */
export const hideCelebration = (): boolean => {
  if (timer !== undefined) clearTimeout(timer)
  timer = undefined
  const box = $("celebrate")
  const shown = !box.hidden
  box.hidden = true
  return shown
}

/** Celebrates a win of `amount` (already formatted). */
export const celebrate = (amount: string): void => {
  hideCelebration()
  $("celebrate-amount").textContent = t("youWin", { amount })
  const stage = $("stage")
  const box = $("celebrate")
  box.style.top = `${stage.offsetTop + stage.offsetHeight}px`
  box.hidden = false
  timer = setTimeout(hideCelebration, 2000)
}

export const setupCelebration = (): void => {
  document.addEventListener("click", () => void hideCelebration(), { capture: true })
}
