import type { ResponderAlert } from '@aed/contracts/dispatch'
import type { Texts } from './texts'

type Props = { alert: ResponderAlert; hasAed: boolean; answerLeft: number | null; since: number; t: Texts }

/** What to do now: the role (or, at the scene, CPR), the time left to answer, the call's age. */
export function Status({ alert, hasAed, answerLeft, since, t }: Props) {
  const aed = alert.role === 'aed'
  return (
    <section className="status">
      {alert.state === 'arrived' ? (
        <>
          <p className="role">{t.doneArrived}</p>
          <p className="cpr">{aed ? t.cprAed : t.cprPatient}</p>
        </>
      ) : (
        <>
          <p className={`role role-${alert.role}`}>{aed ? t.roleAed : t.rolePatient}</p>
          <p className="hint">{aed ? (hasAed ? t.bringAed : t.roleAedHint) : t.rolePatientHint}</p>
        </>
      )}
      {answerLeft !== null && (
        <p className="countdown" role="timer">
          {answerLeft > 0 ? t.answerIn(answerLeft) : t.answerLate}
        </p>
      )}
      {alert.state === 'expired' && <p className="countdown">{t.lateAnswer}</p>}
      {alert.state === 'accepted' && <p className="accepted-note">{t.doneAccepted}</p>}
      <p className="meta">
        {t.calledAgo(since)} · {t.accepted(alert.accepted)}
      </p>
    </section>
  )
}
