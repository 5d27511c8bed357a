import { Checkbox } from 'antd'
import { useTranslation } from 'react-i18next'
import type { LegalKind } from '../../../components/LegalModal'

type Props = {
  checked?: boolean
  onChange?: (checked: boolean) => void
  onOpen: (kind: LegalKind) => void
}

/** The privacy-terms acceptance the sign-in needs, with links to both texts. */
export function PrivacyCheckbox({ checked, onChange, onOpen }: Props) {
  const { t } = useTranslation()
  return (
    <Checkbox checked={checked} onChange={(e) => onChange?.(e.target.checked)} data-testid="login-privacy">
      {t('login.privacyPrefix')}{' '}
      <button
        type="button"
        className="link-button"
        onClick={(e) => {
          e.preventDefault()
          onOpen('terms')
        }}
      >
        {t('login.terms')}
      </button>{' '}
      {t('login.and')}{' '}
      <button
        type="button"
        className="link-button"
        onClick={(e) => {
          e.preventDefault()
          onOpen('privacy')
        }}
      >
        {t('login.privacy')}
      </button>
    </Checkbox>
  )
}
