/** What the game API answers, as far as the page reads it. */

export interface Session {
  readonly gameId: string
  readonly createdAt?: string
  readonly lobby: boolean
  readonly mode: "real" | "demo"
  readonly currency: string
}

/** The merchant's settings the page uses (branding, limits, what to hide). */
export interface Settings {
  readonly hideBalance?: boolean
  readonly minimumStake?: number
  readonly maximumStake?: number
  readonly logo1xUrl?: string
  readonly logo2xUrl?: string
  readonly fontFamilyUrl?: string
  readonly cupImageUrl?: string
}

export interface Fairness {
  readonly serverSeedHash: string
  readonly clientSeed: string
  readonly nonce: number
  readonly serverSeed?: string
}

export interface Outcome {
  readonly summary?: string
  readonly [field: string]: unknown
}

export interface Round {
  readonly roundId: string
  readonly gameId: string
  readonly status?: string
  readonly stake: string
  readonly selection: unknown
  readonly outcome?: Outcome
  readonly payout?: string | null
  readonly createdAt?: string
  readonly fairness?: Fairness
}

export interface PayLine {
  readonly condition: string
  readonly multiplier: string | number
  readonly selection?: unknown
  readonly picks?: number
  readonly hits?: number
}

export interface Rules {
  readonly name?: string
  readonly description?: string
  readonly rtp?: string
  readonly payouts?: ReadonlyArray<PayLine>
  readonly examples?: ReadonlyArray<unknown>
}

export interface GameEntry {
  readonly id: string
  readonly name: string
  readonly imageUrl?: string
  readonly rtp?: string
}

/** What the launch asked of the page: its language, the casino's page to go back to, the reality check, the shop. */
export interface Launch {
  readonly language?: string
  readonly lobbyUrl?: string
  readonly realityCheckMinutes?: number
  /** A retail shop's launch (CONTRACT §11): the page is the cashier's. */
  readonly shop?: { readonly shopId: string; readonly name: string }
}

/** A grant of free rounds the session may play (CONTRACT §13). */
export interface FreeGrant {
  readonly grantId: string
  readonly remaining: number
  readonly stake: string
}

/** POST /sessions: the redeemed launch. */
export interface Opened {
  readonly sessionToken: string
  readonly session: Session & { readonly createdAt?: string }
  readonly settings?: Settings
  readonly balance?: string
  readonly fairness?: Fairness
  readonly launch?: Launch
  readonly freeRounds?: ReadonlyArray<FreeGrant>
}

/** POST /rounds: a played round. */
export interface Played {
  readonly roundId: string
  readonly gameId?: string
  readonly outcome: Outcome
  readonly payout: string
  readonly balance?: string
  readonly fairness?: Fairness
  readonly freeRound?: { readonly grantId: string; readonly remaining: number }
}

/** PUT /fairness: the new commitment and the revealed previous seed. */
export interface Rotated {
  readonly current: Fairness
  readonly previous?: Fairness & { readonly nonces?: number }
}
