import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { isLanguage } from '../../i18n'
import { type LiveStatus, openLive } from '../../lib/live/liveClient'
import { createLiveBus, LiveBusContext, LiveStatusContext } from '../../lib/live/liveContext'
import { endSession } from '../../lib/request'
import { sessionStore } from '../../lib/session'
import { useSession } from '../../lib/useSession'
import { useDeviceLiveSync } from './useDeviceLiveSync'

function DeviceLiveSync() {
  useDeviceLiveSync()
  return null
}

/**
 * The signed-in console's one live socket, opened with the stored token: a new token (sign-in,
 * organisation switch) opens a new socket from scratch, a language change goes on after the
 * last id seen, signing out closes it. A session the server ends (4009) signs the console out
 * with the reason.
 */
export function LiveProvider({
  children,
  WebSocket,
}: {
  children: ReactNode
  WebSocket?: typeof globalThis.WebSocket
}) {
  const { token } = useSession()
  const { i18n } = useTranslation()
  const lang = isLanguage(i18n.language) ? i18n.language : undefined
  const bus = useMemo(createLiveBus, [])
  const [status, setStatus] = useState<LiveStatus>('down')
  const seen = useRef<{ token: string | null; id?: number }>({ token: null })

  useEffect(() => {
    setStatus('down')
    if (!token) return
    if (seen.current.token !== token) seen.current = { token }
    const client = openLive({
      token,
      lang,
      after: seen.current.id,
      WebSocket,
      onStatus: setStatus,
      // Ended by the server (another session changed the password, the organisation was
      // disabled): unless this console already holds a newer token, say why and sign in again.
      onEnded: (reason) => {
        if (sessionStore.get().token !== token) return
        endSession(i18n.t(reason ? `request.ended.${reason}` : 'request.expired'))
      },
      onFrame: (frame) => {
        seen.current.id = Math.max(seen.current.id ?? 0, frame.id)
        bus.emit(frame)
      },
    })
    return () => client.close()
  }, [token, lang, bus, WebSocket, i18n])

  return (
    <LiveBusContext.Provider value={bus}>
      <LiveStatusContext.Provider value={status}>
        <DeviceLiveSync />
        {children}
      </LiveStatusContext.Provider>
    </LiveBusContext.Provider>
  )
}
