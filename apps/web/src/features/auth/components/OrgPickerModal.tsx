import type { Membership, UserInfo } from '@aed/contracts'
import { BankOutlined, RightOutlined } from '@ant-design/icons'
import { Modal, Spin, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDict } from '../../../lib/useDict'
import { useSwitchMembership } from '../api/useSwitchMembership'

type Props = {
  /** The sign-in answer whose account has several memberships; null hides the modal. */
  login: UserInfo | null
  onPicked: (info: UserInfo) => void
  onCancel: () => void
}

/** Asks which organisation to enter when the account belongs to several. */
export function OrgPickerModal({ login, onPicked, onCancel }: Props) {
  const { t } = useTranslation()
  const { label } = useDict()
  const switchMembership = useSwitchMembership()
  const [picking, setPicking] = useState<number | null>(null)

  const pick = async (membership: Membership) => {
    if (!login || picking !== null) return
    setPicking(membership.id)
    try {
      onPicked(
        await switchMembership.mutateAsync({
          member_id: membership.id,
          token: login.token,
          username: login.phone,
        }),
      )
    } catch {
      // The request client already showed the reason.
    } finally {
      setPicking(null)
    }
  }

  return (
    <Modal
      open={login !== null}
      title={t('orgPicker.title')}
      footer={null}
      onCancel={onCancel}
      destroyOnHidden
      width={520}
      data-testid="org-picker"
    >
      <Typography.Paragraph type="secondary">{t('orgPicker.hint')}</Typography.Paragraph>
      <ul className="org-picker-list">
        {login?.agency_list.map((m) => (
          <li key={m.id}>
            <button
              type="button"
              className="org-picker-option"
              disabled={picking !== null}
              onClick={() => pick(m)}
              data-testid={`org-option-${m.id}`}
            >
              <BankOutlined className="org-picker-icon" />
              <span className="org-picker-text">
                <span className="org-picker-name">{m.agency_name}</span>
                <span className="org-picker-meta">
                  <Tag color="blue">{label('role_type', m.role_type)}</Tag>
                  <Tag>{t(`agencyType.${m.agency_type}`)}</Tag>
                  {m.current && <Tag color="green">{t('orgPicker.current')}</Tag>}
                </span>
              </span>
              {picking === m.id ? <Spin size="small" /> : <RightOutlined />}
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  )
}
