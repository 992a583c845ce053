import { Effect, Option } from "effect"
import type { Role } from "../Backoffice.ts"
import type { MerchantId } from "../Merchant.ts"
import { BackofficeStore } from "../ports/BackofficeStore.ts"
import { mailCode } from "./BackofficeAccount.ts"

/**
 * An owner invites a user by e-mail: a user of `role` without a password,
 * and a mailed invitation code with which the invitee sets one (72 h, 5
 * tries). Inviting again someone of the same merchant who has not accepted
 * yet mails a new code (the first role stays); any other e-mail a user or a
 * merchant has is EmailTaken.
 */
export const inviteUser = Effect.fn("Backoffice.inviteUser")(function*(merchantId: MerchantId, email: string, role: Role) {
  const store = yield* BackofficeStore
  const invited = yield* store.invite(merchantId, email.trim(), role).pipe(
    Effect.catchTag("EmailTaken", (taken) =>
      Effect.flatMap(store.userByEmail(email.trim()), (existing) =>
        Option.isSome(existing) && existing.value.merchantId === merchantId && !existing.value.hasPassword
          ? Effect.succeed(existing.value)
          : Effect.fail(taken)))
  )
  const user = Option.getOrUndefined(yield* store.user(invited.id))
  if (user !== undefined) yield* mailCode(user, "invitation")
  return user ?? invited
})
