import { Switch } from 'antd'
import { useTranslation } from 'react-i18next'

/**
 * The door as the cabinet last reported it: a switch that shows the state (on = open) and is no
 * control, so it takes no click, no focus and no keyboard; a dash before the first report.
 */
export function DoorSwitch({ value, sn }: { value: number | null; sn: string }) {
  const { t } = useTranslation()
  if (value === null) return <>{t('table.empty')}</>
  const open = value === 1
  return (
    <Switch
      size="small"
      checked={open}
      checkedChildren={t('cabinet.doorOpen')}
      unCheckedChildren={t('cabinet.doorClosed')}
      className={`door-switch ${open ? 'door-switch-open' : ''}`}
      tabIndex={-1}
      aria-readonly
      aria-label={`${t('cabinet.doorStatus')} ${open ? t('cabinet.doorOpened') : t('cabinet.doorShut')}`}
      data-testid={`door-${sn}`}
      data-open={open ? 1 : 0}
    />
  )
}
