import { call } from "../api.ts"
import { announce, h, section } from "../dom.ts"
import { form } from "../form.ts"
import { when } from "../state.ts"
import type { Revealed, Rotated } from "../types.ts"

/** The webhook secret revealed after the password again, and the rotation of it or the key pair with an overlap. */
export const secrets = (main: HTMLElement): void => {
  const secret = h("p", { id: "revealed", hidden: true })
  const reveal = form("reveal", [
    { name: "password", label: "Your password", type: "password", autocomplete: "current-password", required: true }
  ], "Show the webhook secret", async (f) => {
    const r = await call<Revealed>("POST", "/secrets/reveal", { password: f.control("password")?.value ?? "" })
    if (!r.ok) return r.problem.code === "INVALID_CREDENTIALS" ? f.error("password", "That is not your password.") : f.fail(r.problem)
    const control = f.control("password")
    if (control !== undefined) control.value = ""
    secret.replaceChildren("Webhook secret: ", h("code", { class: "secret" }, r.body.encryptionKey))
    secret.hidden = false
    announce("The webhook secret is shown.")
  })
  const rotated = h("div", { id: "rotated", role: "status" })
  const rotate = form("rotate", [
    { name: "secret", label: "What to rotate", type: "select", value: "encryptionKey", options: [["encryptionKey", "Webhook secret (Standard Webhooks v1)"], ["signingKey", "Ed25519 key pair (v1a)"]] },
    { name: "overlapSeconds", label: "Overlap in minutes", inputmode: "numeric", value: "60", hint: "For this long every webhook carries both the old and the new signature, so you can switch without losing one. 0 stops the old one at once." }
  ], "Rotate", async (f) => {
    const minutes = Number(f.value("overlapSeconds"))
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 10_080) return f.error("overlapSeconds", "Enter whole minutes from 0 to 10080 (7 days).")
    const r = await call<Rotated>("POST", "/secrets/rotate", { secret: f.value("secret"), overlapSeconds: minutes * 60 })
    if (!r.ok) return f.fail(r.problem)
    rotated.replaceChildren(
      h("p", {}, `Rotated. Both signatures are sent until ${when(r.body.overlapUntil)}.`),
      r.body.encryptionKey === undefined ? "" : h("p", {}, "New webhook secret: ", h("code", { class: "secret", id: "new-secret" }, r.body.encryptionKey))
    )
  })
  main.append(
    section("Reveal the webhook secret", h("p", { class: "hint" }, "Enter your password again to see it."), reveal.el, secret),
    section("Rotate a secret", rotate.el, rotated)
  )
}
