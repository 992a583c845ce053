import { can, type Permission } from "@gateway/domain/BackofficeRoles"
import { call, hooks, type Me, session } from "./api.ts"
import { byId, h } from "./dom.ts"
import { changePassword, twoStep, verifyEmail } from "./pages/account.ts"
import { audit } from "./pages/audit.ts"
import { dashboard } from "./pages/dashboard.ts"
import { deliveries, delivery } from "./pages/deliveries.ts"
import { keys } from "./pages/keys.ts"
import { reports } from "./pages/reports.ts"
import { rounds } from "./pages/rounds.ts"
import { rtp } from "./pages/rtp.ts"
import { secrets } from "./pages/secrets.ts"
import { settings } from "./pages/settings.ts"
import { acceptInvitation, landing, resetPassword, signIn } from "./pages/signin.ts"
import { users } from "./pages/users.ts"
import { go, state } from "./state.ts"

/** A page: its path, title, who may see it (any of `permissions`; none: any signed-in user) and how it renders. */
interface Page {
  readonly path: string
  readonly title: string
  readonly permissions?: ReadonlyArray<Permission>
  readonly nav?: boolean
  readonly open?: boolean
  readonly render: (main: HTMLElement, arg: string) => void | Promise<void>
}

const pages: ReadonlyArray<Page> = [
  { path: "/signin", title: "Sign in", open: true, render: (main) => signIn(main, home) },
  { path: "/accept", title: "Accept an invitation", open: true, render: acceptInvitation },
  { path: "/reset", title: "Reset your password", open: true, render: resetPassword },
  { path: "/password", title: "Change your password", render: (main) => changePassword(main, home) },
  { path: "/verify", title: "Verify your e-mail address", render: (main) => verifyEmail(main, home) },
  { path: "/dashboard", title: "Today", permissions: ["reports"], nav: true, render: dashboard },
  { path: "/rounds", title: "Find a round", permissions: ["rounds", "players"], nav: true, render: rounds },
  { path: "/reports", title: "Reports", permissions: ["reports"], nav: true, render: reports },
  { path: "/settings", title: "Settings", permissions: ["settings"], nav: true, render: settings },
  { path: "/rtp", title: "RTP per game", permissions: ["settings"], nav: true, render: rtp },
  { path: "/keys", title: "API keys", permissions: ["keys"], nav: true, render: keys },
  { path: "/secrets", title: "Webhook secrets", permissions: ["secrets"], nav: true, render: secrets },
  { path: "/deliveries", title: "Webhook deliveries", permissions: ["deliveries"], nav: true, render: (main, id) => (id === "" ? deliveries(main) : delivery(main, id)) },
  { path: "/users", title: "Users", permissions: ["users"], nav: true, render: users },
  { path: "/audit", title: "Audit log", permissions: ["audit"], nav: true, render: (main) => audit(main) },
  { path: "/account", title: "Your account", nav: true, render: (main) => {
    twoStep(main)
    main.append(h("h2", {}, "Change your password"))
    changePassword(main, home)
    main.append(h("h2", {}, "E-mail address"))
    verifyEmail(main, home)
  } }
]

const allowed = (page: Page, user: Me): boolean => page.permissions === undefined || page.permissions.some((p) => can(user.role, p))

/** The first page the user may see: where sign-in leads. */
const home = (): string => {
  const user = state.user
  return (user === undefined ? undefined : pages.find((page) => page.nav === true && allowed(page, user)))?.path ?? "/account"
}

const nav = byId("nav")
const menu = byId("menu")

/** The navigation: only the pages the user's role may use (the API refuses the others anyway). */
const drawNav = (current: string): void => {
  const user = state.user
  const signedIn = user !== undefined && !user.isDefaultPassword
  nav.hidden = !signedIn
  menu.hidden = !signedIn
  byId("who").textContent = user === undefined ? "" : `${user.email} (${user.role})`
  if (user === undefined) return
  byId("links").replaceChildren(...pages.filter((page) => page.nav === true && allowed(page, user)).map((page) =>
    h("li", {}, h("a", { href: "#" + page.path, "aria-current": page.path === current ? "page" : undefined }, page.title))))
}

let rendering = 0
const route = async (): Promise<void> => {
  const [path = "", arg = ""] = location.hash.replace(/^#/, "").split(/(?<=^\/[a-z]+)\//)
  const signedIn = state.user !== undefined
  const page = pages.find((p) => p.path === path)
  if (page === undefined) return go(signedIn ? landing(home()) : "/signin")
  if (!signedIn && page.open !== true) return go("/signin")
  if (signedIn && state.user?.isDefaultPassword === true && page.path !== "/password") return go("/password")
  const main = byId("main")
  const run = ++rendering
  drawNav(page.path)
  document.body.classList.remove("menu-open")
  menu.setAttribute("aria-expanded", "false")
  const heading = h("h1", { tabindex: -1 }, page.title)
  // Each page renders into a view of its own: a page still loading when another is opened (the dashboard waits for
  // its reports) then fills a view no longer shown, never the page opened after it.
  const view = h("div", { class: "view" })
  main.replaceChildren(heading, view)
  main.setAttribute("aria-busy", "true")
  document.title = `${page.title} · Back office`
  if (state.user !== undefined && !allowed(page, state.user)) {
    view.append(h("p", {}, "Your role does not include this page."))
  } else {
    await page.render(view, decodeURIComponent(arg))
  }
  if (run !== rendering) return
  main.removeAttribute("aria-busy")
  heading.focus()
}

hooks.ended = () => {
  state.user = undefined
  session.close()
  go("/signin")
}
hooks.mustChangePassword = () => go("/password")

menu.addEventListener("click", () => {
  const open = document.body.classList.toggle("menu-open")
  menu.setAttribute("aria-expanded", String(open))
})
byId("logout").addEventListener("click", async () => {
  await call<null>("POST", "/logout")
  hooks.ended({ status: 401, code: "UNAUTHORIZED", detail: "" })
})
window.addEventListener("hashchange", () => void route())

const boot = async (): Promise<void> => {
  if (session.csrf() !== "") {
    const me = await call<Me>("GET", "/me")
    if (me.ok) state.user = me.body
  }
  await route()
}
void boot()
