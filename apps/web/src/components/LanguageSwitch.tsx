import { GlobalOutlined } from '@ant-design/icons'
import { Button, Dropdown } from 'antd'
import { useTranslation } from 'react-i18next'
import { changeLanguage, currentLanguage, languages } from '../i18n'

/** Switches between zh-CN and en-US; the choice is kept in storage. */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t } = useTranslation()
  const current = currentLanguage()
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: languages.map((lng) => ({
          key: lng,
          label: <span data-testid={`lang-${lng}`}>{t(`lang.${lng}`)}</span>,
        })),
        onClick: ({ key }) => {
          const lng = languages.find((l) => l === key)
          if (lng) void changeLanguage(lng)
        },
      }}
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
    </Dropdown>
  )
}
