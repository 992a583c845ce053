/**
 * The back office's roles and what each may do (CONTRACT §9), without
 * Schema: the server's role guard and the back-office pages' navigation
 * read this one table.
 */
export const roles = ["owner", "developer", "finance", "support"] as const
export type Role = typeof roles[number]

/** What an endpoint or a page may need. */
export const permissions = [
  "users", "audit", "settings", "keys", "secrets", "deliveries", "reports", "rounds", "revenueShare", "players"
] as const
export type Permission = typeof permissions[number]

const grants: { readonly [R in Role]: ReadonlySet<Permission> } = {
  owner: new Set(permissions),
  developer: new Set(["settings", "keys", "secrets", "deliveries"]),
  finance: new Set(["reports", "rounds", "revenueShare"]),
  support: new Set(["rounds", "players"])
}

/** Whether `role` may do what `permission` names. */
export const can = (role: Role, permission: Permission): boolean => grants[role].has(permission)
