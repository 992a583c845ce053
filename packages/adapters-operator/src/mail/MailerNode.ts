import { Effect, Layer, Option, Redacted } from "effect"
import { type Mail, Mailer, MailFailed } from "@gateway/domain/ports/Mailer"
import { randomUUID } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { createTransport } from "nodemailer"

/** Where the back office's mail goes. */
export interface MailOptions {
  /** `smtp://user:pass@host:port` or `smtps://…` (`SMTP_URL`); none: files under `directory`. */
  readonly smtpUrl: Option.Option<Redacted.Redacted<string>>
  /** The `From` of every mail (`MAIL_FROM`). */
  readonly from: string
  /** Where mails are written without SMTP: `DATA_DIR/mail`. */
  readonly directory: string
}

const reasonOf = (error: unknown) => {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "unknown"
  return `SMTP error ${code}`
}

/**
 * Through a real SMTP server with nodemailer (STARTTLS when the server offers
 * it), bounded in time: a server that does not answer fails the mail in
 * seconds instead of holding the request for nodemailer's default minutes.
 */
const smtp = (url: Redacted.Redacted<string>, from: string): Mailer["Service"] => {
  const transport = createTransport(
    { url: Redacted.value(url), connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
    { from }
  )
  return Mailer.of({
    send: (mail) =>
      Effect.tryPromise({
        try: () => transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text }),
        catch: (error) =>
          new MailFailed({
            detail: reasonOf(error),
            // EENVELOPE: nodemailer or the server (550 to RCPT TO) refused the recipient's address.
            recipientRefused: typeof error === "object" && error !== null && "code" in error && error.code === "EENVELOPE"
          })
      }).pipe(
        Effect.tap(() => Effect.logInfo("back-office mail sent").pipe(Effect.annotateLogs({ subject: mail.subject }))),
        Effect.asVoid
      )
  })
}

/** The text of a mail file: headers as an SMTP server would receive them, then the body. */
const fileText = (mail: Mail, from: string) =>
  `From: ${from}\nTo: ${mail.to}\nSubject: ${mail.subject}\nDate: ${new Date().toUTCString()}\n\n${mail.text}\n`

/**
 * Without SMTP: each mail is a file `DATA_DIR/mail/<time>-<uuid>.eml` (only
 * the owner may read it), and a log line names the file, never the code in
 * it: whoever runs the gateway reads the code from the file.
 */
const files = (directory: string, from: string): Mailer["Service"] =>
  Mailer.of({
    send: (mail) =>
      Effect.tryPromise({
        try: async () => {
          await mkdir(directory, { recursive: true, mode: 0o700 })
          const file = join(directory, `${new Date().toISOString().replace(/[:.]/g, "-")}-${randomUUID()}.eml`)
          await writeFile(file, fileText(mail, from), { mode: 0o600 })
          return file
        },
        catch: (error) => new MailFailed({ detail: `could not write the mail file: ${reasonOf(error)}` })
      }).pipe(
        Effect.tap((file) =>
          Effect.logInfo("back-office mail written (no SMTP_URL)").pipe(Effect.annotateLogs({ subject: mail.subject, file }))
        ),
        Effect.asVoid
      )
  })

/** The mailer of {@link MailOptions}: SMTP when a URL is given, else files. */
export const layer = (options: MailOptions): Layer.Layer<Mailer> =>
  Layer.sync(Mailer, () =>
    Option.match(options.smtpUrl, {
      onSome: (url) => smtp(url, options.from),
      onNone: () => files(options.directory, options.from)
    }))
