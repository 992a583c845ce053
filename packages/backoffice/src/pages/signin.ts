import type { SignedIn } from "@gateway/client/api/Backoffice"
import { call, session } from "../api.ts"
import { h } from "../dom.ts"
import { form } from "../form.ts"
import { go, state } from "../state.ts"

/** Where a user lands after signing in: the password change first, then the e-mail verification, then `home`. */
export const landing = (home: string): string =>
  state.user?.isDefaultPassword === true ? "/password" : state.user?.verifiedEmail === false ? "/verify" : home

/** Sign-in: e-mail and password, and the authenticator code once the API asks for it (401 TOTP_REQUIRED). */
export const signIn = (main: HTMLElement, home: () => string): void => {
  const totpInput = h("input", { id: "signin-totpCode", name: "totpCode", inputmode: "numeric", autocomplete: "one-time-code", maxlength: 6, "aria-describedby": "signin-err" })
  const totp = h("div", { class: "field", hidden: true }, h("label", { for: "signin-totpCode" }, "Code from your authenticator app"), totpInput)
  const f = form("signin", [
    { name: "email", label: "E-mail address", type: "email", autocomplete: "username", required: true, maxlength: 254 },
    { name: "password", label: "Password", type: "password", autocomplete: "current-password", required: true, maxlength: 256 }
  ], "Sign in", async (f) => {
    if (f.value("email") === "") return f.error("email", "Enter your e-mail address.")
    if (f.control("password")?.value === "") return f.error("password", "Enter your password.")
    const code = totpInput.value.trim()
    const r = await call<typeof SignedIn.Encoded>("POST", "/login", {
      email: f.value("email"),
      password: f.control("password")?.value ?? "",
      ...(code === "" ? {} : { totpCode: code })
    })
    if (!r.ok) {
      f.fail(r.problem)
      if (r.problem.code === "TOTP_REQUIRED") {
        totp.hidden = false
        totpInput.focus()
      }
      return
    }
    session.open(r.body.csrfToken)
    state.user = r.body.user
    go(landing(home()))
  }, totp)
  main.append(f.el, h("p", {}, h("a", { href: "#/reset" }, "Forgot your password?"), " · ", h("a", { href: "#/accept" }, "Accept an invitation")))
}

/** Sets a password with the code of an invitation mail. */
export const acceptInvitation = (main: HTMLElement): void => {
  const f = form("accept", [
    { name: "email", label: "E-mail address", type: "email", autocomplete: "username", required: true },
    { name: "code", label: "Code from the invitation mail (6 digits)", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 6 },
    { name: "password", label: "New password", type: "password", autocomplete: "new-password", hint: "At least 12 characters, without your e-mail address or the company name.", required: true }
  ], "Set my password", async (f) => {
    const r = await call<null>("POST", "/invitation/accept", { email: f.value("email"), code: f.value("code"), password: f.control("password")?.value ?? "" })
    if (!r.ok) return f.fail(r.problem)
    f.done("Your password is set. You can sign in now.")
    main.append(h("p", {}, h("a", { href: "#/signin" }, "Sign in")))
  })
  main.append(f.el)
}

/** Asks for a reset code by mail, then sets a new password with it. */
export const resetPassword = (main: HTMLElement): void => {
  const ask = form("reset-ask", [
    { name: "email", label: "E-mail address", type: "email", autocomplete: "username", required: true }
  ], "Mail me a code", async (f) => {
    const r = await call<null>("POST", "/password-reset", { email: f.value("email") })
    if (!r.ok) return f.fail(r.problem)
    f.done("If this address has an account, a code is on its way. It works for 15 minutes.")
  })
  const confirm = form("reset", [
    { name: "email", label: "E-mail address", type: "email", autocomplete: "username", required: true },
    { name: "code", label: "Code from the mail (6 digits)", inputmode: "numeric", autocomplete: "one-time-code", required: true, maxlength: 6 },
    { name: "newPassword", label: "New password", type: "password", autocomplete: "new-password", hint: "At least 12 characters.", required: true }
  ], "Set the new password", async (f) => {
    const r = await call<null>("POST", "/password-reset/confirm", { email: f.value("email"), code: f.value("code"), newPassword: f.control("newPassword")?.value ?? "" })
    if (!r.ok) return f.fail(r.problem)
    f.done("Your password is changed. You can sign in now.")
  })
  main.append(h("h2", {}, "1. Get a code"), ask.el, h("h2", {}, "2. Choose a new password"), confirm.el)
}
