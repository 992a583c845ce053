import type { TotpEnrolment, User } from "@gateway/client/api/Backoffice"
import { call } from "../api.ts"
import { announce, h, section } from "../dom.ts"
import { form } from "../form.ts"
import { go, state } from "../state.ts"

/** The password change: forced while the generated password is kept. */
export const changePassword = (main: HTMLElement, next: () => string): void => {
  if (state.user?.isDefaultPassword === true) {
    main.append(h("p", { class: "note" }, "You signed in with the password the gateway generated. Choose your own before you go on."))
  }
  const f = form("password", [
    { name: "currentPassword", label: "Current password", type: "password", autocomplete: "current-password", required: true },
    { name: "newPassword", label: "New password", type: "password", autocomplete: "new-password", required: true, hint: "At least 12 characters, without your e-mail address or the company name." }
  ], "Change the password", async (f) => {
    const password = (name: string) => f.control(name)?.value ?? ""
    if (password("newPassword").length < 12) return f.error("newPassword", "Use at least 12 characters.")
    const r = await call<typeof User.Encoded>("POST", "/password", { currentPassword: password("currentPassword"), newPassword: password("newPassword") })
    if (!r.ok) return r.problem.code === "INVALID_CREDENTIALS" ? f.error("currentPassword", "That is not your current password.") : f.fail(r.problem)
    state.user = r.body
    go(r.body.verifiedEmail ? next() : "/verify")
  })
  main.append(f.el)
}

/** The e-mail verification with the mailed 6-digit code, and a new code on demand. */
export const verifyEmail = (main: HTMLElement, next: () => string): void => {
  if (state.user?.verifiedEmail === true) {
    main.append(h("p", {}, "Your e-mail address is verified."))
    return
  }
  const f = form("verify", [
    { name: "code", label: "Code from the mail (6 digits)", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 6 }
  ], "Verify", async (f) => {
    if (!/^\d{6}$/.test(f.value("code"))) return f.error("code", "Enter the 6 digits of the mail.")
    const r = await call<typeof User.Encoded>("POST", "/verify-email", { code: f.value("code") })
    if (!r.ok) return f.fail(r.problem)
    state.user = r.body
    go(next())
  })
  const resent = h("p", { role: "status" })
  const resend = h("button", {
    type: "button",
    class: "secondary",
    onclick: async () => {
      resend.disabled = true
      const r = await call<null>("POST", "/verify-email/resend")
      resent.textContent = r.ok ? "A new code is on its way; the old one no longer works." : r.problem.code === "RATE_LIMITED" ? "A code was mailed less than a minute ago. Wait a minute, then try again." : r.problem.detail
      resend.disabled = false
    }
  }, "Mail me a new code")
  main.append(
    h("p", {}, `We mailed a 6-digit code to ${state.user?.email ?? "your address"}. It works for 15 minutes.`),
    f.el,
    h("div", { class: "actions" }, resend, h("a", { href: "#" + next(), class: "button secondary" }, "Later")),
    resent
  )
}

/** Two-step sign-in (TOTP): turned on with a first code from an authenticator app, off with the password. */
export const twoStep = (main: HTMLElement): void => {
  const box = section("Two-step sign-in")
  const on = state.user?.totpEnabled === true
  if (on) {
    const off = form("totp-off", [
      { name: "password", label: "Your password", type: "password", autocomplete: "current-password", required: true }
    ], "Turn two-step sign-in off", async (f) => {
      const r = await call<typeof User.Encoded>("POST", "/totp/remove", { password: f.control("password")?.value ?? "" })
      if (!r.ok) return r.problem.code === "INVALID_CREDENTIALS" ? f.error("password", "That is not your password.") : f.fail(r.problem)
      state.user = r.body
      f.done("Two-step sign-in is off.")
    })
    box.append(h("p", {}, "On: signing in asks for a code from your authenticator app."), off.el)
  } else {
    const setup = h("div", { id: "totp-setup", hidden: true, tabindex: -1 })
    const start = h("button", {
      type: "button",
      onclick: async () => {
        const r = await call<typeof TotpEnrolment.Encoded>("POST", "/totp")
        if (!r.ok) return void setup.replaceChildren(h("p", { class: "err", role: "alert" }, r.problem.detail))
        const confirm = form("totp-on", [
          { name: "code", label: "Code from the app (6 digits)", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 6 }
        ], "Turn it on", async (f) => {
          const done = await call<typeof User.Encoded>("POST", "/totp/confirm", { code: f.value("code") })
          if (!done.ok) return f.fail(done.problem)
          state.user = done.body
          setup.replaceChildren(h("p", { class: "ok" }, "Two-step sign-in is on."))
          announce("Two-step sign-in is on.")
        })
        setup.replaceChildren(
          h("p", {}, "Add this key to your authenticator app (or open the link on your phone), then enter the code it shows."),
          h("p", {}, "Key: ", h("code", { id: "totp-secret", class: "secret" }, r.body.secret)),
          h("p", {}, h("a", { href: r.body.otpauthUrl }, "Open in the authenticator app")),
          confirm.el
        )
        setup.hidden = false
        setup.focus()
      }
    }, "Set up two-step sign-in")
    box.append(h("p", {}, "Off: signing in asks only for your password."), start, setup)
  }
  main.append(box)
}
