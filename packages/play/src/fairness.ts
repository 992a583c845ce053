import { t } from "./i18n/index.ts"
import * as Draws from "@gateway/domain/games/Draws"
import { throwOf } from "@gateway/domain/games/Throws"
import { builtin } from "./games/builtin.ts"
import { call, problem } from "./api.ts"
import { $, $input, $select } from "./dom.ts"
import { renderHistory } from "./history.ts"
import { saveSession } from "./resume.ts"
import { S } from "./state.ts"
import type { Fairness, Round, Rotated } from "./types.ts"

/**
 * The fairness panel: the current commitment, a new client seed (which
 * reveals the server seed used so far), and the verification of a round in
 * the browser: SHA-256 of the revealed seed against its hash, then the draw
 * recomputed by the domain's own `Draws` and the game's throw (the code the
 * server plays) over WebCrypto's HMAC-SHA256, compared with the round.
 */

const enc = new TextEncoder()
const hex = (buf: ArrayBuffer | Uint8Array): string => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("")
const sha256 = async (text: string): Promise<string> => hex(await crypto.subtle.digest("SHA-256", enc.encode(text)))

/** Thrown by a block asked before it is computed: WebCrypto is asynchronous, the domain's draws are not. */
class MissingBlock {
  readonly index: number
  constructor(index: number) {
    this.index = index
  }
}

/** What the game's throw draws for these seeds and nonce, or undefined for a game the domain does not know. */
export const recompute = async (
  gameId: string,
  serverSeed: string,
  clientSeed: string,
  nonce: number
): Promise<Readonly<Record<string, unknown>> | undefined> => {
  const spec = builtin[gameId]?.draw
  if (spec === undefined) return undefined
  const draw = throwOf(spec)
  const key = await crypto.subtle.importKey("raw", enc.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  const blocks: Array<Uint8Array> = []
  for (;;) {
    try {
      return draw(Draws.make((index) => {
        const block = blocks[index]
        if (block === undefined) throw new MissingBlock(index)
        return block
      }))
    } catch (e) {
      if (!(e instanceof MissingBlock)) throw e
      blocks[e.index] = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(Draws.message(clientSeed, nonce, e.index))))
    }
  }
}

const shown = (o: Readonly<Record<string, unknown>>): string =>
  Object.values(o).map((v) => (Array.isArray(v) ? v.join(" ") : String(v))).join(" ")

export const renderFair = (): void => {
  const f: Partial<Fairness> = S.fair ?? {}
  $("f-hash").textContent = f.serverSeedHash ?? ""
  $("f-client").textContent = f.clientSeed ?? ""
  $("f-nonce").textContent = f.nonce === undefined ? "" : String(f.nonce)
}

/** The server seed of a round, when it has been revealed. */
export const seedOf = (rd: Round): string =>
  rd.fairness === undefined ? "" : rd.fairness.serverSeed ?? S.seeds[rd.fairness.serverSeedHash] ?? ""

export const randomSeed = (): string => hex(crypto.getRandomValues(new Uint8Array(10)))

/** The "Change seeds" form: a new client seed, which reveals the server seed used so far. */
export const rotate = async (e: Event): Promise<void> => {
  e.preventDefault()
  if (S.busy) return
  const input = $input("seed-input")
  const msg = $("seed-msg")
  const seed = input.value.trim() || randomSeed()
  if (!/^[!-9;-~]{1,64}$/.test(seed)) {
    msg.className = "bad"
    msg.textContent = t("seedInvalid")
    return
  }
  S.busy = true
  const r = await call<Rotated>("PUT", "/fairness", { clientSeed: seed })
  S.busy = false
  if (r.status === 401) return
  if (!r.ok || r.body === null || r.body.current === undefined) {
    msg.className = "bad"
    msg.textContent = problem(r, t("seedsNotChanged"))
    return
  }
  S.fair = r.body.current
  const p = r.body.previous
  if (p !== undefined && typeof p.serverSeed === "string") {
    S.seeds[p.serverSeedHash] = p.serverSeed
    $("v-seed").textContent = p.serverSeed
    $("v-hash").textContent = p.serverSeedHash
    $("v-client").textContent = p.clientSeed
    $("v-nonces").textContent = typeof p.nonces === "number"
      ? (p.nonces === 1 ? t("nonceOne") : t("noncesMany", { n: p.nonces, last: p.nonces - 1 }))
      : String(p.nonces)
    $("revealed").hidden = false
  }
  input.value = ""
  msg.className = ""
  msg.textContent = t("seedsChanged", { nonce: S.fair.nonce })
  saveSession()
  renderFair()
  renderHistory()
}

/** Verifies the round picked in the panel, reading it again from the server first. */
export const verify = async (): Promise<void> => {
  const id = $select("verify-round").value
  const out = $("verify-out")
  out.className = ""
  if (id === "") {
    out.textContent = t("playFirst")
    return
  }
  out.textContent = t("checking")
  let rd = S.rounds.find((x) => x.roundId === id)
  const r = await call<Round>("GET", "/rounds/" + encodeURIComponent(id))
  if (r.status === 401) return
  if (r.ok && r.body !== null) rd = r.body
  else if (rd === undefined) {
    out.className = "bad"
    out.textContent = problem(r, t("roundNotRead"))
    return
  }
  if (rd === undefined) return
  const f: Partial<Fairness> = rd.fairness ?? {}
  const seed = seedOf(rd)
  if (seed === "") {
    out.textContent = t("seedStillSecret")
    return
  }
  if (!window.isSecureContext) {
    out.textContent = t("noHmac")
    return
  }
  const got = await recompute(rd.gameId, seed, f.clientSeed ?? "", f.nonce ?? 0)
  if (got === undefined) {
    out.textContent = t("unknownDraw", { game: rd.gameId })
    return
  }
  const hashOk = (await sha256(seed)) === f.serverSeedHash
  const o = rd.outcome ?? {}
  const same = Object.keys(got).every((k) => JSON.stringify(got[k]) === JSON.stringify(o[k]))
  S.checked[id] = hashOk && same
  out.className = hashOk && same ? "ok" : "bad"
  out.textContent = !hashOk
    ? t("mismatchHash", { hash: String(f.serverSeedHash).slice(0, 16) })
    : same
    ? t("verifiedOk", { nonce: String(f.nonce), drawn: shown(got) })
    : t("mismatchDraw", { nonce: String(f.nonce), drawn: shown(got), shown: shown(o) })
  renderHistory()
}
