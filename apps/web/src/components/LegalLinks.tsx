import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyMount } from './LazyMount'
import type { LegalKind } from './LegalModal'

const LegalModal = lazy(() => import('./LegalModal').then((m) => ({ default: m.LegalModal })))

/** The footer's copyright line with its terms-of-service and privacy-policy links. */
export function LegalLinks({ className }: { className?: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<LegalKind | null>(null)
  return (
    <div className={className}>
      <span>{t('footer.copyright', { year: new Date().getFullYear() })}</span>
      <button type="button" className="link-button" onClick={() => setOpen('terms')}>
        {t('footer.terms')}
      </button>
      <button type="button" className="link-button" onClick={() => setOpen('privacy')}>
        {t('footer.privacy')}
      </button>
      <LazyMount when={open !== null}>
        <LegalModal kind={open} onClose={() => setOpen(null)} />
      </LazyMount>
    </div>
  )
}
