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
