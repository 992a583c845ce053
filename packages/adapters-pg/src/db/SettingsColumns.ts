import type { SettingsField, SettingsValues } from "@gateway/domain/MerchantSettings"
import { settingsFieldNames } from "@gateway/domain/MerchantSettings"
import { decimalText } from "@gateway/domain/Money"

/** The `merchant_settings` column of a settings field: `logo1xUrl` → `logo1x_url`. */
export const columnOf = (field: SettingsField): string => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The set fields of a settings row (read as JSON), keyed by field name; NULL columns become absent keys. */
export const fieldsOfRow = (row: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const fields: Record<string, unknown> = {}
  for (const field of settingsFieldNames) {
    const value = row[columnOf(field)]
    if (value !== null && value !== undefined) fields[field] = value
  }
  return fields
}

/**
 * The settings stored as `numeric` (since migration 0007): the stake limits.
 * They are written as exact decimal text, and read back (through `to_jsonb`)
 * as the JSON numbers they were given as.
 */
const numericFields: ReadonlySet<SettingsField> = new Set<SettingsField>(["minimumStake", "maximumStake"])

/** Every settings column with its new value, NULL for an absent field. */
export const rowOfValues = (values: SettingsValues): Record<string, unknown> => {
  const row: Record<string, unknown> = {}
  for (const field of settingsFieldNames) {
    const value = values[field]
    row[columnOf(field)] = value === undefined ? null : numericFields.has(field) && typeof value === "number"
      ? decimalText(value)
      : value
  }
  return row
}
