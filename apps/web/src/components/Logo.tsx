import { useId } from 'react'
import { useTranslation } from 'react-i18next'

/** The AED Cloud mark: a red heart crossed by a lightning bolt. */
export function Logo({ size = 32 }: { size?: number }) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-labelledby={`${id}-title`}>
      <title id={`${id}-title`}>{t('app.logo')}</title>
      <defs>
        <linearGradient id={`${id}-heart`} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0%" stopColor="#ff6b6b" />
          <stop offset="100%" stopColor="#d6001c" />
        </linearGradient>
      </defs>
      <path
        d="M32 57 C30 55 6 40 6 22 C6 12 14 6 22 6 C27 6 30 9 32 12 C34 9 37 6 42 6 C50 6 58 12 58 22 C58 40 34 55 32 57 Z"
        fill={`url(#${id}-heart)`}
      />
      <path d="M35 13 L22 35 L31 35 L27 51 L42 27 L33 27 L37 13 Z" fill="#fff" />
    </svg>
  )
}
