import type { Problem } from "./api.ts"
import { announce, type Child, h } from "./dom.ts"

/** One field of a form, named as the API names it. */
export interface FieldSpec {
  readonly name: string
  readonly label: string
  readonly type?: "text" | "password" | "email" | "number" | "url" | "checkbox" | "select" | "date" | "textarea"
  readonly value?: string
  readonly checked?: boolean
  readonly hint?: string | undefined
  readonly autocomplete?: string
  readonly inputmode?: string | undefined
  readonly options?: ReadonlyArray<readonly [value: string, label: string]>
  readonly required?: boolean
  readonly maxlength?: number
}

/** A built form: its values, and errors shown next to the field they are about. */
export interface Form {
  readonly el: HTMLFormElement
  readonly value: (name: string) => string
  readonly checked: (name: string) => boolean
  readonly control: (name: string) => HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | undefined
  readonly fail: (problem: Problem) => void
  readonly error: (name: string, message: string) => void
  readonly done: (message: string) => void
}

/** What a person reads for a problem: the API's detail, in plainer words for the codes that need them. */
export const plain = (problem: Problem): string => {
  switch (problem.code) {
    case "INVALID_CREDENTIALS": return "That e-mail address and password do not match an account."
    case "TOTP_REQUIRED": return "Enter the 6-digit code from your authenticator app."
    case "RATE_LIMITED": return "Too many tries. Wait a minute, then try again."
    case "FORBIDDEN": return "Your role may not do this."
    case "OFFLINE": return problem.detail
    default: return problem.status >= 500 ? "Something went wrong on the gateway (" + problem.code + "). Try again." : problem.detail
  }
}

const controlOf = (id: string, spec: FieldSpec, describedBy: string) => {
  const common = { id, name: spec.name, "aria-describedby": describedBy, required: spec.required === true }
  if (spec.type === "select") {
    return h("select", common, ...(spec.options ?? []).map(([value, label]) => h("option", { value, selected: value === spec.value }, label)))
  }
  if (spec.type === "textarea") return h("textarea", { ...common, rows: 4, maxlength: spec.maxlength }, spec.value ?? "")
  return h("input", {
    ...common,
    type: spec.type ?? "text",
    value: spec.type === "checkbox" ? undefined : spec.value,
    checked: spec.checked === true,
    autocomplete: spec.autocomplete ?? "off",
    inputmode: spec.inputmode,
    maxlength: spec.maxlength,
    spellcheck: "false"
  })
}

/**
 * A form of labelled fields, each with a hint and an error slot tied to it by `aria-describedby`; `submit` runs on
 * submit with the button disabled. A problem whose detail names a field shows next to that field (and focuses it),
 * another one above the button.
 */
export const form = (
  id: string,
  fields: ReadonlyArray<FieldSpec>,
  submitLabel: string,
  submit: (form: Form) => Promise<void>,
  ...extra: ReadonlyArray<Child>
): Form => {
  const errors = new Map<string, HTMLElement>()
  const controls = new Map<string, HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>()
  const general = h("p", { class: "err", id: `${id}-err`, role: "alert" })
  const status = h("p", { class: "ok", role: "status" })
  const button = h("button", { type: "submit" }, submitLabel)
  const rows = fields.map((spec) => {
    const fieldId = `${id}-${spec.name}`
    const error = h("p", { class: "err", id: `${fieldId}-err` })
    const hint = spec.hint === undefined ? null : h("p", { class: "hint", id: `${fieldId}-hint` }, spec.hint)
    const control = controlOf(fieldId, spec, [hint === null ? "" : `${fieldId}-hint`, `${fieldId}-err`].join(" ").trim())
    errors.set(spec.name, error)
    controls.set(spec.name, control)
    const label = h("label", { for: fieldId }, spec.label)
    return spec.type === "checkbox"
      ? h("div", { class: "field check" }, control, label, hint, error)
      : h("div", { class: "field" }, label, control, hint, error)
  })
  const el = h("form", { id, class: "form", novalidate: true }, ...rows, ...extra, general, h("div", { class: "actions" }, button), status)
  const clear = () => {
    general.textContent = ""
    status.textContent = ""
    for (const [name, error] of errors) {
      error.textContent = ""
      controls.get(name)?.removeAttribute("aria-invalid")
    }
  }
  const error = (name: string, message: string) => {
    const slot = errors.get(name)
    const control = controls.get(name)
    if (slot === undefined || control === undefined) {
      general.textContent = message
      return
    }
    slot.textContent = message
    control.setAttribute("aria-invalid", "true")
    control.focus()
  }
  const self: Form = {
    el,
    value: (name) => controls.get(name)?.value.trim() ?? "",
    checked: (name) => {
      const control = controls.get(name)
      return control instanceof HTMLInputElement && control.checked
    },
    control: (name) => controls.get(name),
    fail: (problem) => {
      // A 400 VALIDATION_FAILED's detail names the field (CONTRACT §1); other problems are about the whole form.
      const named = problem.code !== "VALIDATION_FAILED" ? undefined : [...controls.keys()].sort((a, b) => b.length - a.length)
        .find((name) => new RegExp(`\\b${name}\\b`).test(problem.detail))
      error(named ?? "", plain(problem))
      announce(plain(problem))
    },
    error,
    done: (message) => {
      status.textContent = message
    }
  }
  el.addEventListener("submit", (event) => {
    event.preventDefault()
    clear()
    button.disabled = true
    el.setAttribute("aria-busy", "true")
    submit(self).finally(() => {
      button.disabled = false
      el.removeAttribute("aria-busy")
    })
  })
  return self
}
