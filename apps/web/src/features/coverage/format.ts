/** A share (0-1) as a percentage with one decimal ('66.7%'); '–' when there is none. */
export function percent(share: number | null | undefined): string {
  if (share === null || share === undefined) return '–'
  return `${(Math.round(share * 1000) / 10).toFixed(1)}%`
}

/** Seconds as minutes:seconds ('1:30', '62:05'); '–' when there are none. */
export function minutesSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '–'
  const s = Math.max(0, Math.round(seconds))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}
