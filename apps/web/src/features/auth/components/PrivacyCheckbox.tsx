import { Checkbox } from 'antd'
import type { MouseEvent } from 'react'
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
  // A link inside the label opens its text without ticking the box.
  const open = (kind: LegalKind) => (e: MouseEvent) => {
    e.preventDefault()
    onOpen(kind)
  }
  return (
    <Checkbox checked={checked} onChange={(e) => onChange?.(e.target.checked)} data-testid="login-privacy">
      {t('login.privacyPrefix')}{' '}
      <button type="button" className="link-button" onClick={open('terms')}>
        {t('login.terms')}
      </button>{' '}
      {t('login.and')}{' '}
      <button type="button" className="link-button" onClick={open('privacy')}>
        {t('login.privacy')}
      </button>
    </Checkbox>
  )
}
