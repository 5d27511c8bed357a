import type { ResponderAlert } from '@aed/contracts/dispatch'
import type { Texts } from './texts'

/** The AED to fetch: where it is, where inside, its cabinet and whether it is open, its photo. */
export function AedCard({ aed, t }: { aed: NonNullable<ResponderAlert['aed']>; t: Texts }) {
  return (
    <section className="card card-aed">
      <h2>{t.aedTitle}</h2>
      {aed.location && <p className="place">{aed.location}</p>}
      {aed.location_desc && (
        <p>
          <span className="label">{t.aedWhere}</span>
          {aed.location_desc}
        </p>
      )}
      {aed.cabinet_sn && (
        <p className="cabinet">
          {t.aedCabinet(aed.cabinet_sn)}
          <span className={aed.unlocked ? 'badge badge-open' : 'badge'}>
            {aed.unlocked ? t.unlocked : t.locked}
          </span>
        </p>
      )}
      {aed.photo && <img src={aed.photo} alt={t.aedPhoto} loading="lazy" />}
    </section>
  )
}

/** The call: the place, what the caller said and when. */
export function CallCard({ call, t }: { call: ResponderAlert['call']; t: Texts }) {
  return (
    <section className="card card-call">
      <h2>{t.callPlace}</h2>
      <p className="place">{call.location}</p>
      {call.description && (
        <p>
          <span className="label">{t.callNote}</span>
          {call.description}
        </p>
      )}
      <p className="muted">
        {t.callTime} {call.call_time}
      </p>
    </section>
  )
}
