import type { AgencyNode } from '@aed/contracts/agency'
import { agencyTypeOptions, findNode, levelUnder, parentOptions } from '@aed/contracts/agency-rules'
import { App, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { RecordFormModal } from '../../../components/FormModal/RecordFormModal'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useSession } from '../../../lib/useSession'
import { useSubmit } from '../../../lib/useSubmit'
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
  onClose: () => void
}

/** Add organisation / modify organisation. */
export function AgencyModal({ id, open, tree, defaultParent, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { userInfo } = useSession()
  const { canEdit } = useAreaLevel('agency')
  const [form] = Form.useForm<AgencyFormValues>()
  const detail = useAgency(open ? id : null)
  const save = useSaveAgency()
  const send = useSubmit(save, { onDone: onClose })
  const editing = id !== null
  const actor = { agency_type: userInfo?.agency_type ?? 2, agency_id: userInfo?.agency_id ?? 0 }

  const parents: { id: number; name: string }[] = parentOptions(tree, actor).filter((p) => p.id !== id)
  const current = detail.data
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
    if (!canEdit) {
      message.error(t('common.noPermission'))
      return
    }
    const values = await validated(form)
    if (!values) return
    await send({ id, form: toAgencyForm(values) })
  }

  return (
    <RecordFormModal
      open={open}
      title={editing ? t('agency.modify') : t('agency.add')}
      width={760}
      saving={save.isPending}
      onOk={submit}
      onClose={onClose}
      form={form}
      name="agency"
      formLayout={{ layout: 'vertical' }}
      recordId={id}
      initial={initial}
      canEdit={canEdit}
    >
      <AgencyFormFields
        typeOptions={agencyTypeOptions(editing, actor.agency_type)}
        parents={parents}
        level={level}
        disabled={!canEdit}
      />
    </RecordFormModal>
  )
}
