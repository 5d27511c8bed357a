import type { AgencyNode } from '@aed/contracts/agency'
import { fallbackLevel, grantableLevels, initialRows, roleOptions } from '@aed/contracts/member-rules'
import { useQueryClient } from '@tanstack/react-query'
import { App, Divider, Form, Row } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { type RecordDialogLook, RecordFormModal } from '../../../components/FormModal/RecordFormModal'
import { useRecordDialog } from '../../../components/FormModal/useFormDialog'
import { useSession } from '../../../lib/useSession'
import { validated } from '../../../lib/validated'
import { lookupAccount } from '../api/accountLookup'
import { useMember } from '../api/useMember'
import { useSaveMember } from '../api/useSaveMember'
import { submitProblem } from '../memberRules'
import { MemberAccountFields } from './MemberAccountFields'
import { MemberAddressFields } from './MemberAddressFields'
import { MemberPermissionFields } from './MemberPermissionFields'
import { fromMember, type MemberFormValues, toMemberForm } from './memberFormValues'

export const MEMBER_DIALOG_WIDTH = 1000

type Props = {
  id: number | null
  open: boolean
  tree: AgencyNode[]
  /** The list's `can.create`; the user's own `can.edit` decides when editing. */
  canCreate: boolean
  onClose: () => void
}

const look: RecordDialogLook = {
  name: 'member',
  width: MEMBER_DIALOG_WIDTH,
  formLayout: { layout: 'vertical' },
  titles: { add: 'member.add', edit: 'member.edit' },
}

/** 新建用户 / 更改用户信息: person, address, organisation, role and the default permission rows. */
export function MemberModal({ id, open, tree, canCreate, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const client = useQueryClient()
  const { userInfo } = useSession()
  const [form] = Form.useForm<MemberFormValues>()
  const detail = useMember(open ? id : null)
  const save = useSaveMember()
  const { send, editing, modal } = useRecordDialog(save, form, id, { open, onClose })
  const actorRole = userInfo?.role_type ?? 2
  const grantable = grantableLevels(actorRole)
  const stored = detail.data
  const canEdit = editing ? (stored?.can.edit ?? false) : canCreate
  const roles = roleOptions(editing, actorRole, stored?.role_type)

  const initial: MemberFormValues | undefined = editing
    ? stored && fromMember(stored, initialRows(stored.permissions))
    : {
        phone: '',
        name: '',
        email: '',
        nationality: 'CN',
        agency_id: userInfo?.agency_id,
        role_type: 2,
        permissions: initialRows(null),
      }

  const prefill = async (phone: string) => {
    const found = await lookupAccount(client, phone).catch(() => null)
    const a = found?.account
    if (found?.exists && !a) message.info(t('member.existsElsewhere'))
    if (!found?.exists || !a) return
    form.setFieldsValue({
      name: a.name,
      ...(a.email ? { email: a.email } : {}),
      ...(a.nationality ? { nationality: a.nationality } : {}),
      ...(a.location ? { location: a.location } : {}),
      ...(a.address_code ? { region: a.address_code } : {}),
      ...(a.lat != null && a.lon != null ? { lat: a.lat, lon: a.lon } : {}),
      ...(a.birth ? { birth: dayjs(a.birth) } : {}),
      ...(a.gender === 1 || a.gender === 2 ? { gender: a.gender } : {}),
    })
    message.info(t('member.prefilled'))
  }

  const submit = async () => {
    const values = form.getFieldsValue(true) as MemberFormValues
    const problem = submitProblem(values)
    if (problem) {
      message.error(t(problem))
      void validated(form)
      return
    }
    if ((await validated(form)) === null) return
    const granted = Object.values(values.permissions ?? {}).some(Boolean)
    if (values.role_type !== 0 && !granted) {
      message.error(t('member.permissionRequired'))
      return
    }
    await send({ id, form: toMemberForm(values, stored) })
  }

  return (
    <RecordFormModal {...modal} look={look} onOk={submit} initial={initial} canEdit={canEdit}>
      <Row gutter={24}>
        <MemberAccountFields
          editing={editing}
          disabled={!canEdit}
          roles={roles}
          tree={tree}
          onPhone={prefill}
        />
        <MemberAddressFields disabled={!canEdit} />
      </Row>
      <Divider className="member-divider" />
      <Row gutter={24}>
        <MemberPermissionFields
          grantable={grantable}
          fallback={fallbackLevel(editing, grantable)}
          disabled={!canEdit}
        />
      </Row>
    </RecordFormModal>
  )
}
