import type { Effect } from "effect"
import { Context, Schema } from "effect"

/** A mail of the back office: plain text to one address. */
export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

/** The mail could not be handed to the mail server; `recipientRefused` when it refused the address itself. */
export class MailFailed extends Schema.TaggedError<MailFailed>()("MailFailed", {
  detail: Schema.String,
  recipientRefused: Schema.optionalKey(Schema.Boolean)
}) {
  override get message(): string {
    return `the mail could not be sent: ${this.detail}`
  }
}

/** Sends the back office's mail (codes, invitations). */
export class Mailer extends Context.Service<Mailer, {
  send(mail: Mail): Effect.Effect<void, MailFailed>
}>()("@gateway/domain/ports/Mailer") {}
