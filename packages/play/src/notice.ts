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
  $("notice").hidden = false
}

/** A dismissable message above the controls. */
export const showAlert = (text: string): void => {
  $("alert-text").textContent = text
  $("alert").hidden = false
}
export const clearAlert = (): void => {
  $("alert").hidden = true
}
