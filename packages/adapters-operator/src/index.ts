/**
 * The gateway's side of every call to an operator, and what signs for it:
 * the guarded HTTP client and its address policy, the one signed-POST path
 * behind a circuit breaker per merchant,
 * the Details and wallet clients, the webhook delivery worker, launch-token
 * signing and verification, `node:crypto`-backed credentials and ids, and the
 * back office's mail to the operators' staff (SMTP, or files offline).
 */
export * as AddressGuard from "./http/AddressGuard.ts"
export * as OperatorHttp from "./http/OperatorHttp.ts"
export * as OperatorUrlPolicy from "./http/OperatorUrlPolicy.ts"
export * as OperatorCircuit from "./http/OperatorCircuit.ts"
export * as SignedPost from "./http/SignedPost.ts"
export * as OperatorDetailsHttp from "./details/OperatorDetailsHttp.ts"
export * as WalletClientHttp from "./wallet/WalletClientHttp.ts"
export * as DeliveryWorker from "./webhooks/DeliveryWorker.ts"
export * as MerchantSigningKeys from "./webhooks/MerchantSigningKeys.ts"
export * as Signature from "./webhooks/Signature.ts"
export * as WebhookDesk from "./webhooks/WebhookDesk.ts"
export * as LaunchKeys from "./launch/LaunchKeys.ts"
export * as LaunchTokenSignerJwt from "./launch/LaunchTokenSignerJwt.ts"
export * as LaunchTokenVerifierJwt from "./launch/LaunchTokenVerifierJwt.ts"
export * as BackofficeSecretsNode from "./crypto/BackofficeSecretsNode.ts"
export * as FairRandomNode from "./crypto/FairRandomNode.ts"
export * as IdsNode from "./crypto/IdsNode.ts"
export * as MerchantCredentialsNode from "./crypto/MerchantCredentialsNode.ts"
export * as PasswordHash from "./crypto/PasswordHash.ts"
export * as Totp from "./crypto/Totp.ts"
export * as MailerNode from "./mail/MailerNode.ts"
export * as RoundLinksHmac from "./crypto/RoundLinksHmac.ts"
