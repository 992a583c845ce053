import { Context } from "effect"

/** Issuer and lifetime of launch tokens. */
export interface LaunchPolicyValue {
  readonly issuer: string
  readonly ttlSeconds: number
}

/** The launch policy in force; defaults to the contract's 60 seconds. */
export const LaunchPolicy = Context.Reference<LaunchPolicyValue>("@gateway/domain/LaunchPolicy", {
  defaultValue: () => ({ issuer: "operator-gateway", ttlSeconds: 60 })
})

/**
 * How long a signer keeps the store's current key in memory: a rotation
 * reaches every instance within this time.
 */
export const signerKeyCacheSeconds = 60

/**
 * How long a retired key stays published: the longest lifetime of a token it
 * signed, plus the time a signer may still use it after a rotation.
 */
export const retiredKeyRetentionSeconds = (policy: LaunchPolicyValue): number =>
  policy.ttlSeconds + signerKeyCacheSeconds

/**
 * How long a used link's page may resume the session it opened: the life of the resume cookie its redemption
 * sets (CONTRACT §6, docs/decisions.md), 12 hours.
 */
export const resumeWindowSeconds = 12 * 3600

/**
 * How long a retired key still verifies the links it signed for a resume, unpublished: a link it signed just
 * before it retired may be redeemed up to {@link retiredKeyRetentionSeconds} later, and resumed for
 * {@link resumeWindowSeconds} after that. Without it, a framed page reloaded after a rotation said "invalid link"
 * instead of resuming its session.
 */
export const resumableKeyRetentionSeconds = (policy: LaunchPolicyValue): number =>
  retiredKeyRetentionSeconds(policy) + resumeWindowSeconds
