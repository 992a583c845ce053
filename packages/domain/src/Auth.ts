import { Schema } from "effect"

/** Missing, malformed, unknown or revoked credentials. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()("Unauthorized", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** Valid credentials that may not do this: a missing scope, or a merchant that is not `active`. */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  detail: Schema.String
}) {
  override get message(): string {
    return this.detail
  }
}

/** OAuth-style scopes carried by an admin bearer token. */
export const Scope = Schema.Literals(["read:users", "write:users"])
export type Scope = typeof Scope.Type
