import type { PermissionArea, PermissionLevel, Permissions } from '@aed/contracts'
import type { Member } from '@aed/contracts/member'
import { AUTHORITY_ROWS, grantableLevels, READ_ONLY_AREAS, visibleRows } from '@aed/contracts/member-rules'
import { App, Card, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormFreshStart } from '../../../components/FormModal/FormFreshStart'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useFormDialog } from '../../../components/FormModal/useFormDialog'
import { useFormReset } from '../../../lib/useFormReset'
import { useSession } from '../../../lib/useSession'
import { useSetAuthority } from '../api/useSetAuthority'
import { PermissionRow } from './PermissionRow'
import { UsagePeriodField } from './UsagePeriodField'

type Values = { permissions: Permissions; use_expire: string | null }
type Props = { member: Member | null; onClose: () => void }

/** 权限管理: the overview, aid event, device, responder and permission panels and the usage period. */
export function AuthorityModal({ member, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { userInfo } = useSession()
  // The user's own `can.edit`, as the server decides it for this row.
  const canEdit = member?.can.edit ?? false
  const [form] = Form.useForm<Values>()
  const save = useSetAuthority()
  const { send, modal } = useFormDialog(save, { open: member !== null, onClose })
  const grantable = grantableLevels(userInfo?.role_type ?? 2)
  const rows = visibleRows(AUTHORITY_ROWS, member?.role_type, ['aid_man', 'member'])
  const choices = (area: PermissionArea) =>
    READ_ONLY_AREAS.includes(area)
      ? [{ value: 'READ_ONLY' as PermissionLevel, label: t('member.readOnly') }]
      : [
          { value: 'READ_ONLY' as PermissionLevel, label: t('member.readOnly') },
          { value: 'ALL' as PermissionLevel, label: t('member.editable') },
        ]

  useFormReset(form, member ? String(member.id) : null)

  const submit = async () => {
    if (!member) return
    if (!canEdit) {
      message.error(t('common.noPermission'))
      return
    }
    const values = form.getFieldsValue(true) as Values
    const panels = Object.fromEntries(rows.map((a) => [a, values.permissions?.[a] ?? null]))
    const permissions: Permissions = { ...member.permissions, ...panels }
    if (member.role_type === 2) permissions.member = null
    await send({ id: member.id, body: { permissions, use_expire: values.use_expire ?? null } })
  }

  return (
    <FormModal
      {...modal}
      title={t('member.authority')}
      width={720}
      canSave={canEdit}
      onOk={submit}
      testId="authority-modal"
    >
      {member && (
        <Form
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ permissions: member.permissions, use_expire: member.use_expire }}
        >
          <div className="authority-user">
            {t('member.authorityFor', { name: member.account.name, agency: member.agency_name })}
          </div>
          <div className="authority-panels">
            {rows.map((area) => (
              <Card key={area} size="small" className="authority-panel" title={t(`member.rows.${area}`)}>
                <Form.Item name={['permissions', area]} noStyle>
                  <PermissionRow
                    label={t('member.grant')}
                    choices={choices(area)}
                    grantable={grantable}
                    fallback="READ_ONLY"
                    disabled={!canEdit}
                    testId={`authority-${area}`}
                  />
                </Form.Item>
              </Card>
            ))}
          </div>
          <Form.Item name="use_expire" label={t('member.period.title')} className="authority-period">
            <UsagePeriodField disabled={!canEdit} />
          </Form.Item>
          <FormFreshStart />
        </Form>
      )}
    </FormModal>
  )
}
