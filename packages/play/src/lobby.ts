import { t } from "./i18n/index.ts"
import { gameName } from "./outcomes.ts"
import { call, problem } from "./api.ts"
import { stopAutoplay } from "./autoplay.ts"
import { $, btn, el } from "./dom.ts"
import { showAlert } from "./notice.ts"
import { openGame } from "./play.ts"
import { group } from "./money.ts"
import { S } from "./state.ts"
import type { GameEntry } from "./types.ts"

/** The lobby: the merchant's games as tiles, the current one marked and focused. */
export const showLobby = (): void => {
  if (S.busy) return
  stopAutoplay()
  $("game").hidden = true
  $("lobby").hidden = false
  $("to-lobby").hidden = true
  $("title").textContent = t("games")
  $("rtp").textContent = ""
  const tiles = $("tiles")
  for (const t of tiles.querySelectorAll<HTMLElement>(".tile")) t.setAttribute("aria-current", String(t.dataset["game"] === S.game))
  const current = tiles.querySelector<HTMLElement>("[aria-current=true]") ?? tiles.querySelector<HTMLElement>(".tile")
  current?.focus()
}

/** Reads the session's games into the lobby's tiles. */
export const loadGames = async (): Promise<void> => {
  const r = await call<{ readonly data: ReadonlyArray<GameEntry> }>("GET", "/games?limit=100")
  if (r.status === 401) return
  if (!r.ok || r.body === null || !Array.isArray(r.body.data)) {
    showAlert(problem(r, t("gamesNotLoaded")))
    return
  }
  S.games = r.body.data
  $("tiles").replaceChildren(...S.games.map((g) => {
    S.names[g.id] = gameName(g.id, g.name)
    const li = el("li")
    const b = btn("tile", undefined, () => void openGame(g.id))
    b.dataset["game"] = g.id
    const img = el("img")
    img.alt = ""
    img.loading = "lazy"
    img.width = 320
    img.height = 200
    if (typeof g.imageUrl === "string") img.src = g.imageUrl
    b.append(img, el("span", "", gameName(g.id, g.name)), el("small", "", g.rtp ? t("rtpShort", { rtp: group(g.rtp) }) : ""))
    li.append(b)
    return li
  }))
}
