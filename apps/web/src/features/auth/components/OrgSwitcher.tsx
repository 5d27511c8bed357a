import { BankOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { Select } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Paths } from '../../../lib/paths'
import { sessionStore } from '../../../lib/session'
import { useSession } from '../../../lib/useSession'
import { useMemberships } from '../api/useMemberships'
import { useSwitchMembership } from '../api/useSwitchMembership'

/** The header organisation select: switching swaps token and user info and reloads the menu. */
export function OrgSwitcher() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { token, userInfo } = useSession()
  const memberships = useMemberships(token)
  const switchMembership = useSwitchMembership()
  const list = memberships.data?.resource ?? []

  const change = async (memberId: number) => {
    if (memberId === userInfo?.id) return
    try {
      const info = await switchMembership.mutateAsync({ member_id: memberId })
      queryClient.clear()
      sessionStore.signIn(info)
      navigate(Paths.dashboard)
    } catch {
      // The request client already showed the reason.
    }
  }

  // One organisation: nothing to switch to, so its name is shown as plain text.
  if (list.length < 2) {
    return (
      <span className="org-current" title={userInfo?.agency_name} data-testid="org-switcher">
        <BankOutlined /> <span className="org-current-name">{userInfo?.agency_name}</span>
      </span>
    )
  }

  return (
    <Select
      className="org-switcher"
      value={userInfo?.id}
      onChange={change}
      loading={memberships.isPending || switchMembership.isPending}
      disabled={switchMembership.isPending}
      aria-label={t('layout.switchOrg')}
      placeholder={t('layout.switchOrg')}
      prefix={<BankOutlined />}
      popupMatchSelectWidth={false}
      options={list.map((m) => ({
        value: m.id,
        label: <span data-testid={`org-switch-option-${m.id}`}>{m.agency_name}</span>,
      }))}
      data-testid="org-switcher"
    />
  )
}
