import type { Fairness, FreeGrant, GameEntry, Round, Rules, Session, Settings } from "./types.ts"

/** The page's state: one session, the game on show and what the player has done in it. */
export interface State {
  /** The launch token redeemed (kept with the session: see resume.ts). */
  launch: string
  /** The session token, the bearer of every call after the launch. */
  token: string
  session: Session | null
  settings: Settings
  currency: string
  digits: number
  balance: string | null
  game: string
  rules: Record<string, Rules>
  names: Record<string, string>
  games: ReadonlyArray<GameEntry>
  /** The pick of a choice game. */
  sel: unknown
  /** The picks of a number game. */
  picks: Array<number>
  busy: boolean
  fair: Fairness | null
  rounds: Array<Round>
  /** Revealed server seeds by their hash. */
  seeds: Record<string, string>
  /** Rounds verified in this page, by id. */
  checked: Record<string, boolean>
  /** The casino's page the exit and the error screens lead to ("" when the launch gave none). */
  exit: string
  /** The retail shop of the launch (CONTRACT §11): the cashier's page, without lobby or exit. */
  shop: { readonly shopId: string; readonly name: string } | null
  /** Every this many minutes, the reality check (0: none). */
  reality: number
  /** The session's net result so far (payouts less stakes, minor units) of the rounds this tab played. */
  net: bigint
  /** When this tab opened the session (ms since the epoch, the browser's clock). */
  startedAt: number
  /** The player's free rounds of the launched game, as the session's answer listed them, kept up by each free round. */
  free: Array<FreeGrant>
}

/** The page's data attributes: the launched game, its name and the launch token. */
export const data = document.body.dataset

export const S: State = {
  launch: "", token: "", session: null, settings: {}, currency: "", digits: 2, balance: null, game: "", rules: {}, names: {},
  games: [], sel: null, picks: [], busy: false, fair: null, rounds: [], seeds: {}, checked: {}, exit: "", shop: null, reality: 0, net: 0n, startedAt: 0,
  free: []
}
if (data["game"] !== undefined) S.names[data["game"]] = data["name"] ?? data["game"]
