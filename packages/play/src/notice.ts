import { $ } from "./dom.ts"
import { spinStop } from "./stages.ts"
import { S } from "./state.ts"

/** Ends the page on a full-screen notice (a link that cannot open, an expired session), with "Try again" when it may help. */
export const fatal = (title: string, text: string, retry = false): void => {
  S.busy = true
  spinStop()
  for (const id of ["loading", "lobby", "game", "tabs", "to-lobby", "sound"]) $(id).hidden = true
  $("app").classList.remove("open")
  $("side").hidden = true
  $("notice-title").textContent = title
  $("notice-text").textContent = text
  $("retry").hidden = !retry
  $("reality").hidden = true
  $("clock").hidden = true
  exitLink("notice-exit")
  $("notice").hidden = false
}

/** Points a link at the casino's page, and shows it, when the launch named one (an http(s) URL only). */
export const exitLink = (id: string): void => {
  const a = $(id)
  if (a instanceof HTMLAnchorElement && /^https?:\/\//i.test(S.exit)) {
    a.href = S.exit
    a.hidden = false
  } else a.hidden = true
}

/** A dismissable message above the controls. */
export const showAlert = (text: string): void => {
  $("alert-text").textContent = text
  $("alert").hidden = false
}
export const clearAlert = (): void => {
  $("alert").hidden = true
}
