import { AidAptitude, type Responder } from '@aed/contracts/responder'
import { Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useDict } from '../../../lib/useDict'

/** 有效 or 已过期 (red) for a professional; a dash for anyone else. */
export function CertificateStatus({ responder: r }: { responder: Responder }) {
  const { t } = useTranslation()
  const { label } = useDict()
  if (r.aid_aptitude !== AidAptitude.PROFESSIONAL || r.certificate_status === null) return t('table.empty')
  const text = label('certificate_status', r.certificate_status)
  return r.certificate_status === 0 ? <Typography.Text type="danger">{text}</Typography.Text> : text
}
