import { t } from "./i18n/index.ts"
import { gameName } from "./outcomes.ts"
import { call, problem } from "./api.ts"
import { stopAutoplay } from "./autoplay.ts"
import { $, btn, el } from "./dom.ts"
import { showAlert } from "./notice.ts"
import { openGame, whenOpened } from "./play.ts"
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
    const b = btn("tile", undefined, () => toGame(g.id))
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

/*
 * Back and forward between the lobby and a game (CONTRACT §6): within this document, through history entries
 * whose state names the view (the address stays the bare page, never the token). A session with a lobby starts
 * on a lobby entry with the game's entry over it, so a phone's Back shows the lobby rather than leaving the game;
 * a tile pushes the game's entry; the Lobby button goes back to the lobby's entry. A launch without a lobby (or a
 * shop's) adds no entry.
 */
type View = { readonly view: "lobby" } | { readonly view: "game"; readonly game: string }

/** The view this history entry stands for, if it is one of the page's. */
const viewOfEntry = (): View | undefined => {
  const s: unknown = history.state
  if (typeof s !== "object" || s === null || !("view" in s)) return undefined
  if (s.view === "lobby") return { view: "lobby" }
  return s.view === "game" && "game" in s && typeof s.game === "string" ? { view: "game", game: s.game } : undefined
}

const hasLobby = (): boolean => S.session?.lobby === true && S.shop === null

/** Opens a game from the lobby, on a history entry of its own. */
const toGame = (id: string): void => {
  if (S.busy) return
  if (hasLobby()) history.pushState({ view: "game", game: id } satisfies View, "")
  void openGame(id)
}

/**
 * The Lobby button was pressed and its lobby is not shown yet (the game's rules still load, or its Back is under
 * way): another press adds nothing, where a second Back would leave the page.
 */
let lobbyAsked = false

/** The Lobby button: back to the lobby's entry (the game's entry stays for Forward). */
export const toLobby = (): void => {
  if (lobbyAsked) return
  // Pressed while a game's rules still load: the lobby once they have (as Play waits for them), not dropped unseen.
  const loading = whenOpened()
  if (loading !== undefined) {
    lobbyAsked = true
    void loading.then(() => {
      lobbyAsked = false
      toLobby()
    })
    return
  }
  if (S.busy) return
  if (viewOfEntry()?.view === "game") {
    lobbyAsked = true
    history.back()
  } else showLobby()
}

/**
 * Once a session has begun, before its first game loads: a fresh document gets the lobby's entry and the game's
 * over it, so that Back while the game's rules still load returns to the lobby rather than leaving the page; a
 * reload keeps its entries ({@link showEntry} shows the one it is on).
 */
export const beginHistory = (game: string): void => {
  if (!hasLobby() || viewOfEntry() !== undefined) return
  history.replaceState({ view: "lobby" } satisfies View, "")
  history.pushState({ view: "game", game } satisfies View, "")
}

/** Once the first game has loaded: the lobby, when that is the entry the page is on (reloaded there, or Back meanwhile). */
export const showEntry = (): void => {
  if (hasLobby() && viewOfEntry()?.view === "lobby") showLobby()
}

/** Shows the view of the entry Back or Forward reached, once no round is under way (a notice ends it all). */
const followEntry = (tries = 0): void => {
  const entry = viewOfEntry()
  if (entry === undefined || S.session === null || !$("notice").hidden) return
  if (S.busy) {
    if (tries < 300) setTimeout(() => followEntry(tries + 1), 100)
    return
  }
  if (entry.view === "lobby") {
    if ($("lobby").hidden) showLobby()
  } else if ($("game").hidden || S.game !== entry.game) void openGame(entry.game)
}
window.addEventListener("popstate", () => {
  lobbyAsked = false
  followEntry()
})
