import { S } from "./state.ts"
import type { Fairness, Session, Settings } from "./types.ts"

/**
 * Sessions that survive a reload (CONTRACT §6): once the launch token is
 * redeemed, the session token and what the page was opened with are kept in
 * this tab's `sessionStorage`, so a reload or a phone's pull-to-refresh
 * (whose address no longer has the token) resumes the same session: same
 * game, balance, fairness state and revealed seeds; the history is read again
 * from the server. Another tab does not share it; a session the server no
 * longer knows (401) is forgotten.
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
}

const KEY = "gateway.play.session"

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
    seeds: S.seeds
  }
  try {
    storage()?.setItem(KEY, JSON.stringify(saved))
  } catch {
    // full or refused: a reload then asks for a new link, as before
  }
}

/** The session this tab kept, if any and well formed. */
export const savedSession = (): Saved | undefined => {
  try {
    const text = storage()?.getItem(KEY)
    if (text === null || text === undefined) return undefined
    const saved = JSON.parse(text) as Partial<Saved> | null
    if (saved === null || typeof saved.sessionToken !== "string" || typeof saved.session !== "object" || saved.session === null) return undefined
    return saved as Saved
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
