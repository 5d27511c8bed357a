import { ClockCircleOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'

/** The header clock: YYYY-MM-DD HH:mm:ss, ticking every second. */
export function Clock() {
  const { t } = useTranslation()
  const [now, setNow] = useState(() => dayjs())
  useEffect(() => {
    const timer = setInterval(() => setNow(dayjs()), 1000)
    return () => clearInterval(timer)
  }, [])
  return (
    <span className="header-clock" title={t('layout.clock')} data-testid="header-clock">
      <ClockCircleOutlined /> {now.format('YYYY-MM-DD HH:mm:ss')}
    </span>
  )
}
