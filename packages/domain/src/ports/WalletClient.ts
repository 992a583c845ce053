import type { Effect } from "effect"
import { Context } from "effect"
import type { Merchant } from "../Merchant.ts"
import type { OperatorUnavailable } from "../Operator.ts"
import type { BetRefused, DebitAccepted, WalletTransaction, WalletUnavailable } from "../Wallet.ts"

/** The synchronous part of the wallet: a debit sent once, never retried. */
export class WalletClient extends Context.Service<WalletClient, {
  debit(merchant: Merchant, debit: WalletTransaction): Effect.Effect<DebitAccepted, BetRefused | WalletUnavailable | OperatorUnavailable>
}>()("@gateway/domain/ports/WalletClient") {}
