import { recompute } from "./fairness.ts"

/**
 * The round page (a round's `roundDetailsUrl`): the server renders the round;
 * this verifies its draw in the browser — the round read again as JSON from
 * the same link, SHA-256 of the revealed server seed against the committed
 * hash, then the draw recomputed by the game page's own code (`recompute`:
 * the domain's draws over WebCrypto HMAC-SHA256) and compared with the
 * outcome shown.
 */

interface Details {
  readonly gameId: string
  readonly outcome?: Readonly<Record<string, unknown>>
  readonly fairness?: {
    readonly serverSeedHash: string
    readonly clientSeed: string
    readonly nonce: number
    readonly serverSeed?: string
  }
}

const hex = (buf: ArrayBuffer): string => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("")
const sha256 = async (text: string): Promise<string> =>
  hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))
const shown = (o: Readonly<Record<string, unknown>>): string =>
  Object.values(o).map((v) => (Array.isArray(v) ? v.join(" ") : String(v))).join(" ")

const say = (out: HTMLElement, cls: string, text: string): void => {
  out.className = cls
  out.textContent = text
}

const verify = async (out: HTMLElement): Promise<void> => {
  say(out, "", "Checking…")
  const reply = await fetch(location.pathname + location.search, { headers: { accept: "application/json" } })
  if (!reply.ok) return say(out, "bad", "This round could not be read again (HTTP " + reply.status + ").")
  const round = await reply.json() as Details
  const f = round.fairness
  if (f === undefined || f.serverSeed === undefined) {
    return say(out, "", "The server seed of this round is still secret: it is revealed when the player changes the client seed or the session ends.")
  }
  if (!window.isSecureContext) return say(out, "bad", "This browser cannot compute HMAC-SHA256 here (the page needs https).")
  const got = await recompute(round.gameId, f.serverSeed, f.clientSeed, f.nonce)
  if (got === undefined) return say(out, "bad", "This page does not know how " + round.gameId + " draws.")
  const hashOk = (await sha256(f.serverSeed)) === f.serverSeedHash
  const o = round.outcome ?? {}
  const same = Object.keys(got).every((k) => JSON.stringify(got[k]) === JSON.stringify(o[k]))
  say(
    out,
    hashOk && same ? "ok" : "bad",
    !hashOk
      ? "✗ mismatch: the revealed server seed does not hash to the committed " + f.serverSeedHash.slice(0, 16) + "…"
      : same
      ? "✓ verified: the seed matches its hash, and HMAC-SHA256 of nonce " + f.nonce + " draws " + shown(got) + ", as the round showed."
      : "✗ mismatch: HMAC-SHA256 of nonce " + f.nonce + " draws " + shown(got) + ", but the round showed " + shown(o) + "."
  )
}

const button = document.getElementById("verify")
const out = document.getElementById("verify-out")
if (button instanceof HTMLButtonElement && out !== null) {
  button.hidden = false
  button.addEventListener("click", () => void verify(out).catch(() => say(out, "bad", "The verification failed to run.")))
}
