import type { AlertAction, ResponderAlert } from '@aed/contracts/dispatch'
import type { Position } from './api'
import { AedCard, CallCard } from './Cards'
import { Navigate } from './Navigate'
import { PlaceMap } from './PlaceMap'
import { Status } from './Status'
import { nextStop, targetOf, wayLeft } from './target'
import { formatDistance, type Lang, type Texts } from './texts'
import { minutesSince, parseServerTime } from './time'
import type { Notice } from './useAlert'
import { useNow } from './useNow'
import { usePosition } from './usePosition'
import { useShareLocation } from './useShareLocation'
import { useStoredFlag } from './useStoredFlag'

type Props = {
  token: string
  alert: ResponderAlert
  received: number
  skew: number
  offline: boolean
  busy: AlertAction | null
  notice: Notice | null
  act: (action: AlertAction, at?: Position) => void
  t: Texts
  lang: Lang
}

/** An open alert: what to do, the place, the AED, the call, and the buttons of the moment. */
export function AlertView({ token, alert, received, skew, offline, busy, notice, act, t, lang }: Props) {
  const now = useNow()
  const [hasAed, markHasAed] = useStoredFlag(`rescue.hasAed.${token}`)
  // Waiting for an answer: alerted, or expired (the server still takes a late yes).
  const pending = alert.state === 'alerted' || alert.state === 'expired'
  const accepted = alert.state === 'accepted'
  const position = usePosition(pending || accepted)
  useShareLocation(accepted, position.at, (at) => act('location', at))

  const stop = nextStop(alert, hasAed)
  const way = wayLeft(alert, stop, position.at)
  const wayLabel = t.way[way.leg]
  const since = minutesSince(parseServerTime(alert.call.call_time), now + skew)
  const answerLeft =
    alert.state === 'alerted' && alert.answer_left_s !== null
      ? Math.max(0, alert.answer_left_s - Math.floor((now - received) / 1000))
      : null
  const arrivedHere = alert.state === 'arrived'
  const aed = alert.role === 'aed' ? alert.aed : null

  return (
    <main className={`alert state-${alert.state}`}>
      {offline && <p className="banner banner-warn">{t.offline}</p>}
      {notice && <p className="banner banner-warn">{notice.kind === 'refused' ? notice.msg : t.offline}</p>}
      <Status alert={alert} hasAed={hasAed} answerLeft={answerLeft} since={since} t={t} />
      {!arrivedHere && (
        <>
          <PlaceMap alert={alert} me={position.at} stop={stop} t={t} lang={lang} />
          <p className="way">
            <strong>
              {wayLabel} {formatDistance(way.metres, lang)}
            </strong>
            {way.seconds > 0 && <span> · {t.walk(Math.max(1, Math.round(way.seconds / 60)))}</span>}
          </p>
          {accepted && (
            <p className={position.failed ? 'sharing sharing-off' : 'sharing'}>
              {position.failed ? t.noLocation : t.sharing}
            </p>
          )}
        </>
      )}
      {aed && stop === 'aed' && <AedCard aed={aed} t={t} />}
      <CallCard call={alert.call} t={t} />
      {(pending || accepted) && (
        <div className="actions">
          {pending && (
            <>
              <button
                type="button"
                className="btn btn-decline"
                disabled={!!busy}
                onClick={() => act('decline')}
              >
                {t.decline}
              </button>
              <button
                type="button"
                className="btn btn-accept"
                disabled={!!busy}
                onClick={() => act('accept', position.at ?? undefined)}
              >
                {t.accept}
              </button>
            </>
          )}
          {accepted && (
            <>
              <Navigate key={stop} target={targetOf(alert, stop, t)} label={t.navigateTo[stop]} t={t} />
              {stop === 'aed' ? (
                <button type="button" className="btn btn-primary" onClick={markHasAed}>
                  {t.gotAed}
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={!!busy}
                  onClick={() => act('arrived', position.at ?? undefined)}
                >
                  {t.arrived}
                </button>
              )}
            </>
          )}
        </div>
      )}
    </main>
  )
}
