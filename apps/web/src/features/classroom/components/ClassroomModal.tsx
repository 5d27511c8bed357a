import { App, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { RecordFormModal } from '../../../components/FormModal/RecordFormModal'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useSubmit } from '../../../lib/useSubmit'
import { validated } from '../../../lib/validated'
import { useClassroomItem } from '../api/useClassroomItem'
import { useSaveClassroom } from '../api/useSaveClassroom'
import { type ClassroomValues, classroomProblem, toClassroomBody } from '../classroomRules'
import { ClassroomFields } from './ClassroomFields'

type Props = { id: number | null; open: boolean; onClose: () => void }

/** 新建 / 编辑 a classroom item. */
export function ClassroomModal({ id, open, onClose }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { canEdit } = useAreaLevel('agency')
  const [form] = Form.useForm<ClassroomValues>()
  const detail = useClassroomItem(open ? id : null)
  const save = useSaveClassroom()
  const send = useSubmit(save, { onDone: onClose })
  const editing = id !== null
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
    if (!canEdit) {
      message.error(t('common.noPermission'))
      return
    }
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
    <RecordFormModal
      open={open}
      title={editing ? t('classroom.edit') : t('classroom.add')}
      width={820}
      saving={save.isPending}
      onOk={submit}
      onClose={onClose}
      form={form}
      name="classroom"
      formLayout={{ layout: 'horizontal', labelCol: { span: 4 }, wrapperCol: { span: 19 } }}
      recordId={id}
      initial={initial}
      canEdit={canEdit}
    >
      <ClassroomFields disabled={!canEdit} />
    </RecordFormModal>
  )
}
