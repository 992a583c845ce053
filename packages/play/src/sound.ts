import { t } from "./i18n/index.ts"
import { $, pressed } from "./dom.ts"

/**
 * Sound: off until the player turns it on; the choice is remembered on this
 * device (`localStorage`, where the browser allows it; else for this page).
 * Short tones made with WebAudio, nothing downloaded: a tick as the draw
 * starts, a rising chime for a win, a low note for a loss.
 */

const KEY = "gateway.play.sound"

const remembered = (): boolean => {
  try {
    return window.localStorage.getItem(KEY) === "on"
  } catch {
    return false
  }
}
let on = remembered()
let audio: AudioContext | undefined

const render = () => {
  const b = $("sound")
  pressed(b, on)
  b.setAttribute("aria-label", on ? t("soundOn") : t("soundOff"))
  b.hidden = false
}

/** Shows the toggle and wires it. */
export const setupSound = (): void => {
  render()
  $("sound").addEventListener("click", () => {
    on = !on
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off")
    } catch {
      // remembered for this page only
    }
    render()
    if (on) cue("draw")
  })
}

const tone = (ctx: AudioContext, freq: number, at: number, length: number, type: OscillatorType = "sine") => {
  const osc = ctx.createOscillator()
  const gain = ctx.createGain()
  osc.type = type
  osc.frequency.value = freq
  gain.gain.setValueAtTime(0.0001, ctx.currentTime + at)
  gain.gain.exponentialRampToValueAtTime(0.12, ctx.currentTime + at + 0.02)
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + at + length)
  osc.connect(gain).connect(ctx.destination)
  osc.start(ctx.currentTime + at)
  osc.stop(ctx.currentTime + at + length + 0.05)
}

/** Plays a cue when sound is on (never before the player's own click has turned it on). */
export const cue = (kind: "draw" | "win" | "loss"): void => {
  if (!on || typeof AudioContext === "undefined") return
  try {
    const ctx = audio ??= new AudioContext()
    if (kind === "draw") tone(ctx, 660, 0, 0.08, "triangle")
    else if (kind === "win") [523, 659, 784, 1047].forEach((f, i) => tone(ctx, f, i * 0.09, 0.25))
    else tone(ctx, 196, 0, 0.3, "triangle")
  } catch {
    // no audio here: the page plays on silently
  }
}
