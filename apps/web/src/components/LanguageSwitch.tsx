import { GlobalOutlined } from '@ant-design/icons'
import { Button, Popover } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { changeLanguage, currentLanguage, languages } from '../i18n'

/**
 * Switches between zh-CN and en-US; the choice is kept in storage. A popover of two buttons
 * rather than antd's Dropdown, whose Menu the sign-in page would otherwise load.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const current = currentLanguage()
  const list = (
    <div className="language-list" role="menu">
      {languages.map((lng) => (
        <button
          key={lng}
          type="button"
          role="menuitemradio"
          aria-checked={lng === current}
          className={lng === current ? 'language-item language-item-active' : 'language-item'}
          onClick={() => {
            setOpen(false)
            void changeLanguage(lng)
          }}
          data-testid={`lang-${lng}`}
        >
          {t(`lang.${lng}`)}
        </button>
      ))}
    </div>
  )
  return (
    <Popover
      content={list}
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      arrow={false}
      styles={{ container: { padding: 4 } }}
    >
      <Button
        type="text"
        className={className}
        icon={<GlobalOutlined />}
        aria-label={t('lang.switch')}
        data-testid="language-switch"
      >
        {t(`lang.${current}`)}
      </Button>
    </Popover>
  )
}
