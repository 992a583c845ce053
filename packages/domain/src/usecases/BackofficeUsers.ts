import { Effect } from "effect"
import type { Role } from "../Backoffice.ts"
import type { MerchantId } from "../Merchant.ts"
import { BackofficeStore } from "../ports/BackofficeStore.ts"
import { mailCode } from "./BackofficeAccount.ts"

/**
 * An owner invites a user by e-mail: a user of `role` without a password,
 * and a mailed invitation code with which the invitee sets one (72 h, 5
 * tries). Inviting again someone of the same merchant who has not accepted
 * yet mails a new code and gives the new role (the last invitation is the one
 * the owner means); any other e-mail a user or a merchant has is EmailTaken.
 */
export const inviteUser = Effect.fn("Backoffice.inviteUser")(function*(merchantId: MerchantId, email: string, role: Role) {
  const invited = yield* (yield* BackofficeStore).invite(merchantId, email.trim(), role)
  yield* mailCode(invited, "invitation")
  return invited
})
