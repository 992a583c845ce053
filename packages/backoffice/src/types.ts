/**
 * The back-office API's answers as the wire carries them: the `Encoded` side
 * of the client's and the domain's schemas (types only; nothing of effect is
 * bundled).
 */
import type { IssuedApiKey } from "@gateway/client/api/Merchants"
import type { Deliveries } from "@gateway/client/api/Deliveries"
import type { MerchantSettings } from "@gateway/domain/MerchantSettings"
import type { OperatorRound, OperatorRoundList, Summary } from "@gateway/domain/Report"
import type { RevealedSecret, RotatedSecret } from "@gateway/domain/SecretRotation"
import type { RoundDetails } from "@gateway/domain/Round"

export type SummaryAnswer = typeof Summary.Encoded
export type Round = typeof OperatorRound.Encoded
export type RoundList = typeof OperatorRoundList.Encoded
export type Settings = typeof MerchantSettings.Encoded
export type Issued = typeof IssuedApiKey.Encoded
export type Revealed = typeof RevealedSecret.Encoded
export type Rotated = typeof RotatedSecret.Encoded
export type DeliveryList = typeof Deliveries.Encoded
export type Delivery = DeliveryList["data"][number]
export type Details = typeof RoundDetails.Encoded

// Until the boapi branch is merged: the shapes of its BackofficeApiKeys, DeliveryDetail and PingResult.
export interface ApiKeys {
  readonly data: ReadonlyArray<{ readonly slug: string; readonly prefix: string; readonly createdAt: string; readonly revokedAt?: string; readonly lastUsedAt?: string }>
}
export interface Attempt {
  readonly at: string
  readonly durationMs: number
  readonly request: { readonly method: string; readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  readonly answer?: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  readonly error?: string
}
export type DeliveryDetail = Delivery & { readonly body: string; readonly attemptLog: ReadonlyArray<Attempt> }
export interface Ping {
  readonly deliveryId: string
  readonly delivered: boolean
  readonly durationMs: number
  readonly status?: number
  readonly body?: string
  readonly error?: string
}
