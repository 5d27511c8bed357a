import type { AgencyNode } from '@aed/contracts/agency'
import { agencyTypeOptions, findNode, levelUnder, parentOptions } from '@aed/contracts/agency-rules'
import { Form } from 'antd'
import { type RecordDialogLook, RecordFormModal } from '../../../components/FormModal/RecordFormModal'
import { useRecordDialog } from '../../../components/FormModal/useFormDialog'
import { useSession } from '../../../lib/useSession'
import { validated } from '../../../lib/validated'
import { useAgency } from '../api/useAgency'
import { useSaveAgency } from '../api/useSaveAgency'
import { AgencyFormFields } from './AgencyFormFields'
import { type AgencyFormValues, fromAgency, toAgencyForm } from './agencyFormValues'

type Props = {
  /** The organisation to modify, or null to add one. */
  id: number | null
  open: boolean
  tree: AgencyNode[]
  /** Parent preset for a new organisation (the node chosen in the tree). */
  defaultParent?: number
  /** The list's `can.create`; an organisation's own `can.edit` decides when modifying. */
  canCreate: boolean
  onClose: () => void
}

const look: RecordDialogLook = {
  name: 'agency',
  width: 760,
  formLayout: { layout: 'vertical' },
  titles: { add: 'agency.add', edit: 'agency.modify' },
}

/** Add organisation / modify organisation. */
export function AgencyModal({ id, open, tree, defaultParent, canCreate, onClose }: Props) {
  const { userInfo } = useSession()
  const detail = useAgency(open ? id : null)
  const save = useSaveAgency()
  const [form] = Form.useForm<AgencyFormValues>()
  const { send, editing, modal } = useRecordDialog(save, form, id, { open, onClose })
  const actor = { agency_type: userInfo?.agency_type ?? 2, agency_id: userInfo?.agency_id ?? 0 }

  const parents: { id: number; name: string }[] = parentOptions(tree, actor).filter((p) => p.id !== id)
  const current = detail.data
  const canEdit = editing ? (current?.can.edit ?? false) : canCreate
  if (current?.parent_id && current.parent_name && !parents.some((p) => p.id === current.parent_id))
    parents.unshift({ id: current.parent_id, name: current.parent_name })

  const parentId = Form.useWatch('parent_id', form)
  const level =
    editing && current && (parentId ?? null) === current.parent_id
      ? current.level
      : levelUnder(findNode(tree, parentId)?.level, findNode(tree, actor.agency_id)?.level)

  const initial: AgencyFormValues | undefined = editing
    ? current && fromAgency(current)
    : {
        name: '',
        agency_type: 2,
        parent_id: parents.some((p) => p.id === defaultParent) ? defaultParent : undefined,
        contact_name: '',
        phone: '',
      }

  const submit = async () => {
    const values = await validated(form)
    if (!values) return
    await send({ id, form: toAgencyForm(values) })
  }

  return (
    <RecordFormModal {...modal} look={look} onOk={submit} initial={initial} canEdit={canEdit}>
      <AgencyFormFields
        typeOptions={agencyTypeOptions(editing, actor.agency_type)}
        parents={parents}
        level={level}
        disabled={!canEdit}
      />
    </RecordFormModal>
  )
}
