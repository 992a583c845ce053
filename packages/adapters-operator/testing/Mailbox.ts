import { SMTPServer } from "smtp-server"
import type { AddressInfo } from "node:net"

/** A mail as the SMTP server received it: the envelope's recipients and the raw message. */
export interface ReceivedMail {
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

/** A real SMTP server on 127.0.0.1 (no TLS, no auth) that keeps every mail it receives. */
export interface Mailbox {
  readonly url: string
  readonly mails: Array<ReceivedMail>
  /**
   * The 6-digit code of the newest mail to `to` whose raw text contains `subject`, among the mails from index
   * `from` on (default: all), waiting up to 5 s for it.
   */
  readonly code: (to: string, subject: string, from?: number) => Promise<string>
  readonly close: () => Promise<void>
}

/** Starts a {@link Mailbox} on a free port. */
export const startMailbox = async (): Promise<Mailbox> => {
  const mails: Array<ReceivedMail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString("utf8") })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address: AddressInfo | string | null = server.server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  const code = async (to: string, subject: string, from = 0) => {
    const deadline = Date.now() + 5000
    while (Date.now() < deadline) {
      const mail = mails.slice(from).findLast((m) => m.to.includes(to.toLowerCase()) && m.raw.includes(subject))
      // The body after the headers, its quoted-printable soft line breaks joined.
      const body = mail?.raw.split(/\r?\n\r?\n/).slice(1).join("\n").replace(/=\r?\n/g, "")
      const found = body?.match(/\b(\d{6})\b/)?.[1]
      if (found !== undefined) return found
      await new Promise((r) => setTimeout(r, 50))
    }
    throw new Error(`no mail "${subject}" to ${to}; received: ${mails.map((m) => m.to.join(",")).join("; ")}`)
  }
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    code,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
