import { freeGrantsOf } from "./free.ts"
import { S } from "./state.ts"
import { language } from "./i18n/index.ts"
import type { Fairness, FreeGrant, Launch, Session, Settings } from "./types.ts"

/**
 * Sessions that survive a reload (CONTRACT §6): once the launch token is
 * redeemed, the session token and what the page was opened with are kept in
 * this tab's `sessionStorage`, so a reload or a phone's pull-to-refresh
 * (whose address no longer has the token) resumes the same session: same
 * game, balance, fairness state and revealed seeds; the history is read again
 * from the server. Another tab does not share it; a session the server no
 * longer knows (401) is forgotten. Framed by another site, Chromium gives the
 * page no storage: there the redemption's resume cookie resumes it instead
 * (main.ts, `POST /sessions/resume`).
 */
export interface Saved {
  /** The launch token this tab redeemed: the framing page reloaded hands the frame the same, used, link. */
  readonly launch: string
  readonly sessionToken: string
  readonly session: Session
  readonly settings: Settings
  readonly balance: string | null
  readonly digits: number
  readonly fairness: Fairness | null
  readonly game: string
  readonly seeds: Record<string, string>
  /** What the launch asked of the page (language, exit, reality check). */
  readonly page: Launch
  /** The session's net result so far, minor units (a decimal string of a bigint). */
  readonly net: string
  readonly startedAt: number
  /** The free rounds left (as the session's answer listed them, kept up by each free round). */
  readonly freeRounds: ReadonlyArray<FreeGrant>
}

const KEY = "gateway.play.session"
/** The launch's language and exit, kept after the session is forgotten: the screen that asks for a new link speaks it and leads back. */
const PAGE_KEY = "gateway.play.launch"

const storage = (): Storage | undefined => {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

/** Keeps the session as it is now (nothing when storage is refused, as in some private modes). */
export const saveSession = (): void => {
  if (S.token === "" || S.session === null) return
  const saved: Saved = {
    launch: S.launch,
    sessionToken: S.token,
    session: S.session,
    settings: S.settings,
    balance: S.balance,
    digits: S.digits,
    fairness: S.fair,
    game: S.game,
    seeds: S.seeds,
    page: {
      language: language(),
      ...(S.exit === "" ? {} : { lobbyUrl: S.exit }),
      ...(S.reality === 0 ? {} : { realityCheckMinutes: S.reality }),
      ...(S.shop === null ? {} : { shop: S.shop })
    },
    net: S.net.toString(),
    startedAt: S.startedAt,
    freeRounds: S.free
  }
  try {
    storage()?.setItem(KEY, JSON.stringify(saved))
    storage()?.setItem(PAGE_KEY, JSON.stringify(saved.page))
  } catch {
    // full or refused: a reload then asks for a new link, as before
  }
}

/** The session this tab kept, if any and well formed. */
export const savedSession = (): Saved | undefined => {
  try {
    const text = storage()?.getItem(KEY)
    if (text === null || text === undefined) return undefined
    const saved: Partial<Saved> | null = JSON.parse(text)
    if (saved === null || typeof saved !== "object") return undefined
    const { launch, sessionToken, session, settings, balance, digits, fairness, game, seeds, page, net, startedAt, freeRounds } = saved
    if (typeof sessionToken !== "string" || typeof session !== "object" || session === null || typeof session.currency !== "string") return undefined
    return {
      launch: typeof launch === "string" ? launch : "",
      sessionToken,
      session,
      settings: typeof settings === "object" && settings !== null ? settings : {},
      balance: typeof balance === "string" ? balance : null,
      digits: typeof digits === "number" && Number.isInteger(digits) && digits >= 0 && digits <= 8 ? digits : 2,
      fairness: typeof fairness === "object" ? fairness : null,
      game: typeof game === "string" ? game : "",
      seeds: typeof seeds === "object" && seeds !== null ? seeds : {},
      page: typeof page === "object" && page !== null ? page : {},
      net: typeof net === "string" && /^-?\d{1,20}$/.test(net) ? net : "0",
      startedAt: typeof startedAt === "number" && Number.isFinite(startedAt) ? startedAt : Date.now(),
      freeRounds: freeGrantsOf(freeRounds)
    }
  } catch {
    return undefined
  }
}

export const forgetSession = (): void => {
  try {
    storage()?.removeItem(KEY)
  } catch {
    // nothing kept
  }
}

/** The language and exit of this tab's last launch, kept when its session was forgotten (only what a Launch may hold). */
export const savedLaunch = (): Launch | undefined => {
  try {
    const page: unknown = JSON.parse(storage()?.getItem(PAGE_KEY) ?? "null")
    if (typeof page !== "object" || page === null) return undefined
    const { language, lobbyUrl } = page as Launch
    return {
      ...(typeof language === "string" ? { language } : {}),
      ...(typeof lobbyUrl === "string" ? { lobbyUrl } : {})
    }
  } catch {
    return undefined
  }
}
