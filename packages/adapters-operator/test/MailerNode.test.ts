import { Effect, Option, Redacted } from "effect"
import { Mailer } from "@gateway/domain/ports/Mailer"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import * as MailerNode from "../src/mail/MailerNode.ts"
import { createServer } from "node:net"
import { startMailbox } from "../testing/Mailbox.ts"

const mail = { to: "owner@shop.example", subject: "Your e-mail verification code", text: "Your code is 042917." }
const send = (options: MailerNode.MailOptions) =>
  Effect.runPromiseExit(Effect.gen(function*() {
    return yield* (yield* Mailer).send(mail)
  }).pipe(
    Effect.provide(MailerNode.layer(options))
  ))

const directory = mkdtempSync(join(tmpdir(), "gateway-mail-"))
afterAll(() => rmSync(directory, { recursive: true, force: true }))

describe("the back office's mailer", () => {
  it("hands mail to a real SMTP server, and fails with MailFailed (no address in it) when none answers", async () => {
    const mailbox = await startMailbox()
    try {
      const sent = await send({ smtpUrl: Option.some(Redacted.make(mailbox.url)), from: "Gateway <gw@ops.example>", directory })
      expect(sent._tag).toBe("Success")
      expect(await mailbox.code(mail.to, mail.subject)).toBe("042917")
      expect(mailbox.mails[0]?.raw).toMatch(/^From: Gateway <gw@ops\.example>/m)
    } finally {
      await mailbox.close()
    }
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const address = closed.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    await new Promise((resolve) => closed.close(resolve))
    const refused = await send({ smtpUrl: Option.some(Redacted.make(`smtp://u:secret@127.0.0.1:${port}`)), from: "gw@ops.example", directory })
    expect(refused._tag).toBe("Failure")
    expect(JSON.stringify(refused)).toContain("MailFailed")
    expect(JSON.stringify(refused)).not.toContain("secret")
  })

  it("without SMTP_URL writes each mail to a file of its own under the directory, readable by its owner only", async () => {
    const options = { smtpUrl: Option.none(), from: "gw@ops.example", directory: join(directory, "mail") }
    expect((await send(options))._tag).toBe("Success")
    expect((await send(options))._tag).toBe("Success")
    const files = readdirSync(options.directory)
    expect(files).toHaveLength(2)
    const [first = ""] = files
    const text = readFileSync(join(options.directory, first), "utf8")
    expect(text).toContain(`To: ${mail.to}`)
    expect(text).toContain("Your code is 042917.")
    expect(statSync(join(options.directory, first)).mode & 0o077).toBe(0)
  })
})
