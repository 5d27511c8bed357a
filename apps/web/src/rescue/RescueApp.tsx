import type { ResponderAlert } from '@aed/contracts/dispatch'
import { type ReactNode, useState } from 'react'
import { AlertView } from './AlertView'
import { CallCard } from './Cards'
import { initialLang, type Lang, storeLang, TEXTS, type Texts } from './texts'
import { useAlert } from './useAlert'

/** The responder's page for the link's token: the alert, or a page saying why there is none. */
export function RescueApp({ token }: { token: string }) {
  const [lang, setLang] = useState<Lang>(initialLang)
  const t = TEXTS[lang]
  const { state, busy, notice, act, reload } = useAlert(token, lang)
  const switchLang = () => {
    const other = lang === 'zh' ? 'en' : 'zh'
    storeLang(other)
    setLang(other)
    document.documentElement.lang = other === 'zh' ? 'zh-CN' : 'en'
  }

  return (
    <>
      <header className="top">
        <h1>{t.title}</h1>
        <button type="button" className="lang" onClick={switchLang}>
          {t.language}
        </button>
      </header>
      {!token && <Message title={t.badLink} hint={t.badLinkHint} />}
      {token && state.kind === 'loading' && <p className="loading">{t.loading}</p>}
      {state.kind === 'offline' && (
        <Message title={t.offline} hint={t.offlineHint}>
          <button type="button" className="btn btn-primary" onClick={() => void reload()}>
            {t.retry}
          </button>
        </Message>
      )}
      {state.kind === 'refused' && (
        <Message title={state.msg || t.badLink} hint={state.hadAlert ? t.ended : t.badLinkHint} />
      )}
      {state.kind === 'ok' &&
        (ended(state.alert) ? (
          <Message title={endedTitle(state.alert, t)} tone="calm">
            <CallCard call={state.alert.call} t={t} />
          </Message>
        ) : (
          <AlertView token={token} {...state} busy={busy} notice={notice} act={act} t={t} lang={lang} />
        ))}
    </>
  )
}

/**
 * Nothing more for this responder to do: the call closed, they declined, or enough others went.
 * An expired alert is not ended: the server still takes a late yes.
 */
function ended(alert: ResponderAlert): boolean {
  return !alert.open || alert.state === 'declined' || alert.state === 'stood_down'
}

function endedTitle(alert: ResponderAlert, t: Texts): string {
  if (!alert.open) return t.doneClosed
  return alert.state === 'stood_down' ? t.doneStoodDown : t.doneDeclined
}

type MessageProps = { title: string; hint?: string; tone?: 'calm' | 'warn'; children?: ReactNode }

function Message({ title, hint, tone = 'warn', children }: MessageProps) {
  return (
    <main className={`message message-${tone}`}>
      <h2>{title}</h2>
      {hint && <p>{hint}</p>}
      {children}
    </main>
  )
}
