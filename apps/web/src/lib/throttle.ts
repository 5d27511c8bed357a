/** Runs `fn` at once, then at most once per `ms`: calls in between collapse into one at the end. */
export function throttle(fn: () => void, ms: number) {
  let last = Number.NEGATIVE_INFINITY
  let timer: ReturnType<typeof setTimeout> | undefined
  const run = () => {
    timer = undefined
    last = Date.now()
    fn()
  }
  const call = () => {
    if (timer) return
    const wait = last + ms - Date.now()
    if (wait <= 0) run()
    else timer = setTimeout(run, wait)
  }
  call.cancel = () => clearTimeout(timer)
  return call
}
