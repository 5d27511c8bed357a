import { App, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { type RecordDialogLook, RecordFormModal } from '../../../components/FormModal/RecordFormModal'
import { useRecordDialog } from '../../../components/FormModal/useFormDialog'
import { validated } from '../../../lib/validated'
import { useClassroomItem } from '../api/useClassroomItem'
import { useSaveClassroom } from '../api/useSaveClassroom'
import { type ClassroomValues, classroomProblem, toClassroomBody } from '../classroomRules'
import { ClassroomFields } from './ClassroomFields'

type Props = {
  id: number | null
  open: boolean
  /** The list's `can`: create when adding, edit when editing. */
  canEdit: boolean
  onClose: () => void
}

const look: RecordDialogLook = {
  name: 'classroom',
  width: 820,
  formLayout: { layout: 'horizontal', labelCol: { span: 4 }, wrapperCol: { span: 19 } },
  titles: { add: 'classroom.add', edit: 'classroom.edit' },
}

/** 新建 / 编辑 a classroom item. */
export function ClassroomModal({ id, open, canEdit, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<ClassroomValues>()
  const detail = useClassroomItem(open ? id : null)
  const save = useSaveClassroom()
  const { send, editing, modal } = useRecordDialog(save, form, id, { open, onClose })
  const item = detail.data
  const initial: ClassroomValues | undefined = editing
    ? item && {
        category: item.category,
        title: item.title,
        illustration: item.illustration,
        link: item.link,
        describe: item.describe,
        content_type: item.content_type === 3 ? 3 : 1,
        content: item.content,
      }
    : { content_type: 1 }

  const submit = async () => {
    if ((await validated(form)) === null) return
    const values = form.getFieldsValue(true) as ClassroomValues
    // The field rules say the same; this keeps the server's order should they ever differ.
    const problem = classroomProblem(values)
    if (problem) {
      message.error(t(problem))
      return
    }
    await send({ id, body: toClassroomBody(values) })
  }

  return (
    <RecordFormModal {...modal} look={look} onOk={submit} initial={initial} canEdit={canEdit}>
      <ClassroomFields disabled={!canEdit} />
    </RecordFormModal>
  )
}
