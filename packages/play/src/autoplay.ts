import { call, problem } from "./api.ts"
import { t } from "./i18n/index.ts"
import { $, $input, $select, wait } from "./dom.ts"
import { group, money, plain, toMinor } from "./money.ts"
import { showAlert } from "./notice.ts"
import { play } from "./play.ts"
import { S } from "./state.ts"

/**
 * Autoplay (CONTRACT §12): only with a number of rounds and a loss limit,
 * stopping at either, at the first round that is not played, or when the
 * player presses Stop. The loss is the rounds' stakes less their payouts
 * since autoplay started; it stops once that reaches the limit. The server
 * keeps the same limits (`POST autoplay`, then rounds with `autoplay: true`):
 * a round past either is refused there, whatever this page does.
 */

let running = false
let stopping = false

const button = () => $("auto")
const status = (text: string) => {
  $("auto-status").textContent = text
}
const panel = (open: boolean) => {
  $("autoplay").hidden = !open
  $("presets").hidden = open
  button().hidden = open
}
const label = (left: number) => {
  const b = button()
  b.textContent = running ? t("autoStop", { left }) : t("auto")
  b.setAttribute("aria-pressed", String(running))
}

const run = async (rounds: number, limit: bigint) => {
  running = true
  stopping = false
  label(rounds)
  const started = await call("POST", "/autoplay", { rounds, lossLimit: plain(limit) })
  if (!started.ok) {
    running = false
    label(0)
    if (started.status !== 401) showAlert(problem(started, t("roundFailed")))
    return
  }
  let lost = 0n
  let why = ""
  for (let left = rounds; left > 0; left--) {
    label(left)
    if (stopping) {
      why = t("autoYouStopped")
      break
    }
    const net = await play("autoplay")
    if (net === null) {
      why = t("autoNotPlayed")
      break
    }
    lost -= net
    if (lost >= limit) {
      why = t("autoLossLimit", { amount: money(limit) })
      break
    }
    if (left > 1) await wait(350)
  }
  running = false
  label(0)
  const text = t("autoStopped", { why: why || t("autoRoundsPlayed", { n: rounds }) })
  status(text)
  if (why !== "" && why !== t("autoYouStopped")) showAlert(text)
}

/** Stops autoplay after the round under way (the player left the game). */
export const stopAutoplay = (): void => {
  if (running) stopping = true
}

/** Wires the Auto button and its panel. */
export const setupAutoplay = (): void => {
  button().addEventListener("click", () => {
    if (running) {
      stopping = true
      return
    }
    const stake = toMinor($input("stake").value) ?? 0n
    const loss = $input("auto-loss")
    if (loss.value === "" && stake > 0n) loss.value = plain(stake * 10n)
    panel(true)
    $select("auto-rounds").focus()
  })
  $("auto-close").addEventListener("click", () => {
    panel(false)
    button().focus()
  })
  $("auto-start").addEventListener("click", () => {
    const limit = toMinor($input("auto-loss").value)
    if (limit === null || limit <= 0n) {
      showAlert(t("autoSetLimit", { example: group("10" + (S.digits > 0 ? "." + "0".repeat(S.digits) : "")) }))
      return
    }
    panel(false)
    button().focus()
    void run(Number($select("auto-rounds").value), limit)
  })
}
