/** What the page does when the player's pick changes (set by the play module), so controls need not import it. */
let listener: () => void = () => {}
export const onSelection = (fn: () => void): void => {
  listener = fn
}
export const selectionChanged = (): void => listener()
