import { ClockCircleOutlined } from '@ant-design/icons'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { todayInZone } from '../../lib/datetime'

/**
 * The header clock: YYYY-MM-DD HH:mm:ss in the agencies' time zone (as every time the console
 * shows, alarms included), ticking every second.
 */
export function Clock() {
  const { t } = useTranslation()
  const [now, setNow] = useState(() => todayInZone())
  useEffect(() => {
    const timer = setInterval(() => setNow(todayInZone()), 1000)
    return () => clearInterval(timer)
  }, [])
  return (
    <span className="header-clock" title={t('layout.clock')} data-testid="header-clock">
      <ClockCircleOutlined /> {now.format('YYYY-MM-DD HH:mm:ss')}
    </span>
  )
}
