/**
 * The back-office API's answers as the wire carries them: the `Encoded` side
 * of the client's and the domain's schemas (types only; nothing of effect is
 * bundled).
 */
import type { IssuedApiKey } from "@gateway/client/api/Merchants"
import type { BackofficeApiKeys } from "@gateway/client/api/BackofficeOps"
import type { DeliveryDetail as Detail, PingResult } from "@gateway/domain/DeliveryAttempt"
import type { Deliveries } from "@gateway/client/api/Deliveries"
import type { MerchantSettings } from "@gateway/domain/MerchantSettings"
import type { OperatorRound, OperatorRoundList, Summary } from "@gateway/domain/Report"
import type { RevealedSecret, RotatedSecret } from "@gateway/domain/SecretRotation"
import type { RoundDetails } from "@gateway/domain/Round"
import type { RevenueShareReport } from "@gateway/domain/RevenueShareReport"

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
export type ApiKeys = typeof BackofficeApiKeys.Encoded
export type DeliveryDetail = typeof Detail.Encoded
export type Attempt = DeliveryDetail["attemptLog"][number]
export type Ping = typeof PingResult.Encoded
export type RevenueShare = typeof RevenueShareReport.Encoded
