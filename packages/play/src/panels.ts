import { $, pressed, wide } from "./dom.ts"

const PANELS = ["rules", "history", "fair"] as const
export type Panel = typeof PANELS[number]

/** Shows one of the side panels (over the game on phones, beside it on desktop). */
export const showPanel = (name: Panel): void => {
  for (const p of PANELS) {
    $("p-" + p).hidden = p !== name
    pressed($("tab-" + p), p === name)
  }
  $("app").classList.add("open")
}
/** A tab's button: opens its panel, or on a phone closes it when it is the one open. */
export const togglePanel = (name: Panel): void => {
  if (!wide() && $("app").classList.contains("open") && !$("p-" + name).hidden) closePanel()
  else showPanel(name)
}
export const closePanel = (): void => {
  $("app").classList.remove("open")
  if (!wide()) for (const p of PANELS) pressed($("tab-" + p), false)
}
/** Whether every panel is closed. */
export const nonOpen = (): boolean => PANELS.every((p) => $("p-" + p).hidden)
