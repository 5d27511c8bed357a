/** What a small card's head and padding, a small table's header and the pager take of the list pane. */
export const LIST_CHROME_PX = 150

/** The table body's height in a list pane of `pane` px; none until the pane is measured. */
export function tableBodyHeight(pane: number): number | undefined {
  return pane > LIST_CHROME_PX ? pane - LIST_CHROME_PX : undefined
}
