import type { Responder } from '@aed/contracts/responder'
import type { DescriptionsProps } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'
import { useRegionName } from '../hooks/useRegionName'
import { CertificateLink } from './CertificateLink'
import { CertificateStatus } from './CertificateStatus'

/** The rows of 人员详情, in the spec's order. */
export function useDetailRows(r: Responder | undefined): DescriptionsProps['items'] {
  const { t } = useTranslation()
  const { label } = useDict()
  const region = useRegionName(r?.address_code)
  if (!r) return []
  const dash = t('table.empty')
  const or = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? dash : v)
  const rows: [string, React.ReactNode][] = [
    ['name', r.name],
    ['gender', r.gender ? label('gender', r.gender) : dash],
    ['age', or(r.age)],
    ['birth', or(r.birth)],
    ['phone', r.phone],
    ['email', or(r.email)],
    ['location', or([r.location, r.location_desc].filter(Boolean).join(' '))],
    ['aptitude', label('aid_aptitude', r.aid_aptitude)],
    [
      'certificateNum',
      <>
        {or(r.certificate_num)}
        {r.certificate_img && <CertificateLink src={r.certificate_img} />}
      </>,
    ],
    ['certificateExpire', or(r.certificate_expire)],
    ['certificateStatus', <CertificateStatus key="status" responder={r} />],
    ['region', or(region.data ?? r.address_code)],
    ['bindDevice', r.status === 1 ? t('responder.yes') : t('responder.no')],
    ['creator', or(r.creator)],
    ['createTime', formatDateTime(r.create_time)],
    ['updater', or(r.updator_name ?? r.updator)],
    ['updateTime', formatDateTime(r.update_time)],
  ]
  return rows.map(([key, children]) => ({ key, label: t(`responder.${key}`), children }))
}
