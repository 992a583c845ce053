import { Effect, Option } from "effect"
import type { Role } from "../Backoffice.ts"
import type { MerchantId } from "../Merchant.ts"
import { BackofficeStore } from "../ports/BackofficeStore.ts"
import { mailCode } from "./BackofficeAccount.ts"

/**
 * An owner invites a user by e-mail: a user of `role` without a password,
 * and a mailed invitation code with which the invitee sets one (72 h, 5 tries).
 */
export const inviteUser = Effect.fn("Backoffice.inviteUser")(function*(merchantId: MerchantId, email: string, role: Role) {
  const store = yield* BackofficeStore
  const invited = yield* store.invite(merchantId, email.trim(), role)
  const user = Option.getOrUndefined(yield* store.user(invited.id))
  if (user !== undefined) yield* mailCode(user, "invitation")
  // TODO(audit, migration 0015): record "user invited" (who, when, address, email and role) in the audit log.
  return invited
})
