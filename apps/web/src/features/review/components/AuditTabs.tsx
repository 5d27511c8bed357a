import { AUDIT_TABS } from '@aed/contracts/review'
import { Tabs } from 'antd'
import { useTranslation } from 'react-i18next'

type Props = { status: number; onChange: (status: number) => void }

/** 审核中, 审核通过, 已驳回 (audit_status 1, 2, 0). */
export function AuditTabs({ status, onChange }: Props) {
  const { t } = useTranslation()
  return (
    <Tabs
      activeKey={String(status)}
      onChange={(key) => onChange(Number(key))}
      items={AUDIT_TABS.map((s) => ({
        key: String(s),
        label: <span data-testid={`review-tab-${s}`}>{t(`review.tabs.${s}`)}</span>,
      }))}
    />
  )
}
