import type { User, UserList } from "@gateway/client/api/Backoffice"
import { call } from "../api.ts"
import { announce, h, section, table } from "../dom.ts"
import { form, plain } from "../form.ts"
import { go } from "../state.ts"

const roleNames: Readonly<Record<string, string>> = {
  owner: "Owner: everything",
  developer: "Developer: settings, keys, secrets, deliveries",
  finance: "Finance: reports, rounds, revenue share",
  support: "Support: round and player look-up"
}

const statusOf = (user: typeof User.Encoded): string =>
  [user.invitationPending ? "invitation sent" : "active", user.totpEnabled ? "two-step sign-in" : ""].filter(Boolean).join(", ")

/** The users and their roles: invite by e-mail, remove (owners only; never the owner). */
export const users = async (main: HTMLElement): Promise<void> => {
  const invite = form("invite", [
    { name: "email", label: "E-mail address", type: "email", required: true, maxlength: 254 },
    {
      name: "role",
      label: "Role",
      type: "select",
      value: "finance",
      options: (["developer", "finance", "support"] as const).map((role) => [role, roleNames[role] ?? role] as const)
    }
  ], "Send the invitation", async (f) => {
    if (f.value("email") === "") return f.error("email", "Enter the e-mail address to invite.")
    const r = await call<typeof User.Encoded>("POST", "/users", { email: f.value("email"), role: f.value("role") })
    if (!r.ok) return r.problem.code === "EMAIL_TAKEN" ? f.error("email", "This address already has an account.") : f.fail(r.problem)
    announce(`Invitation mailed to ${r.body.email}.`)
    go("/users")
  })
  const r = await call<typeof UserList.Encoded>("GET", "/users?limit=100")
  if (!r.ok) return void main.append(h("p", { class: "err", role: "alert" }, plain(r.problem)))
  const removeButton = (user: typeof User.Encoded) =>
    user.role === "owner" ? "" : h("button", {
      type: "button",
      class: "danger small",
      "aria-label": `Remove ${user.email}`,
      onclick: async () => {
        if (!confirm(`Remove ${user.email}? Their sessions end at once.`)) return
        const removed = await call<null>("DELETE", `/users/${user.id}`)
        announce(removed.ok ? `${user.email} removed.` : plain(removed.problem))
        if (removed.ok) go("/users")
      }
    }, "Remove")
  main.append(
    section("Invite someone", invite.el),
    table("Users", ["E-mail", "Role", "Status", ""], r.body.data.map((user) => [user.email, user.role, statusOf(user), removeButton(user)]))
  )
}
