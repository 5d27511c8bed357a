import type { AlertAction, ResponderAlert } from '@aed/contracts/dispatch'
import { useCallback, useEffect, useRef, useState } from 'react'
import { type AlertAnswer, loadAlert, type Position, sendAction } from './api'
import type { Lang } from './texts'

/** Seconds between refreshes while the alert is live: the page learns of stand-downs and the end. */
export const REFRESH_MS = 10_000

/** The page's data: loading, the alert (with the last refresh's trouble), or why there is none. */
export type AlertState =
  | { kind: 'loading' }
  | { kind: 'ok'; alert: ResponderAlert; received: number; skew: number; offline: boolean }
  | { kind: 'refused'; msg: string; hadAlert: boolean }
  | { kind: 'offline' }

/** Why the last button did nothing: the server's refusal, or no connection. */
export type Notice = { kind: 'refused'; msg: string } | { kind: 'offline' }

/** States in which something can still change for this responder (a late yes is still taken). */
export function isLive(alert: ResponderAlert): boolean {
  return alert.open && alert.state !== 'declined' && alert.state !== 'stood_down'
}

function next(prev: AlertState, answer: AlertAnswer): AlertState {
  if (answer.kind === 'ok') return { ...answer, offline: false }
  if (answer.kind === 'refused') return { kind: 'refused', msg: answer.msg, hadAlert: prev.kind === 'ok' }
  // A refresh that did not get through keeps what the page shows and says so.
  return prev.kind === 'ok' ? { ...prev, offline: true } : { kind: 'offline' }
}

/**
 * The alert behind a link: loaded once, refreshed every 10 s while live and when the time to
 * answer runs out; `act` sends an action and shows the alert it answers, or the refusal's msg.
 */
export function useAlert(token: string, lang: Lang) {
  const [state, setState] = useState<AlertState>({ kind: 'loading' })
  const [busy, setBusy] = useState<AlertAction | null>(null)
  const [notice, setNotice] = useState<Notice | null>(null)
  const langRef = useRef(lang)
  langRef.current = lang

  const apply = useCallback((answer: AlertAnswer) => setState((prev) => next(prev, answer)), [])
  const reload = useCallback(() => loadAlert(token, langRef.current).then(apply), [token, apply])

  useEffect(() => {
    // A link without a token has nothing to ask for (the page says so).
    if (token) void reload()
  }, [token, reload])

  const live = state.kind === 'ok' && isLive(state.alert)
  useEffect(() => {
    if (!live) return
    const timer = setInterval(() => void reload(), REFRESH_MS)
    return () => clearInterval(timer)
  }, [live, reload])

  // When the time to answer runs out the server has moved on (expired): ask it, a second later.
  const answerLeft = state.kind === 'ok' && state.alert.state === 'alerted' ? state.alert.answer_left_s : null
  const received = state.kind === 'ok' ? state.received : 0
  useEffect(() => {
    if (answerLeft === null) return
    const due = received + (answerLeft + 1) * 1000 - Date.now()
    const timer = setTimeout(() => void reload(), Math.max(0, due))
    return () => clearTimeout(timer)
  }, [answerLeft, received, reload])

  const act = useCallback(
    async (action: AlertAction, at?: Position) => {
      if (action !== 'location') setBusy(action)
      const answer = await sendAction(token, action, langRef.current, at)
      if (action !== 'location') setBusy(null)
      if (answer.kind === 'ok') {
        apply(answer)
        if (action !== 'location') setNotice(null)
      } else if (answer.kind === 'refused' && action !== 'location') {
        // A refusal (too late, the call closed) says why; then the page shows where things stand.
        setNotice({ kind: 'refused', msg: answer.msg })
        void reload()
      } else if (action !== 'location') {
        setNotice({ kind: 'offline' })
      }
    },
    [token, apply, reload],
  )

  return { state, busy, notice, act, reload }
}
