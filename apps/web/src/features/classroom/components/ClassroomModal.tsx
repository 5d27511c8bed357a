import { App, Form, Spin } from 'antd'
import { useTranslation } from 'react-i18next'
import { FormModal } from '../../../components/FormModal/FormModal'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useFormReset } from '../../../lib/useFormReset'
import { useSubmit } from '../../../lib/useSubmit'
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

  useFormReset(form, open && initial ? String(id) : null)

  const submit = async () => {
    if (!canEdit) {
      message.error(t('common.noPermission'))
      return
    }
    if (
      !(await form.validateFields().then(
        () => true,
        () => false,
      ))
    )
      return
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
    <FormModal
      open={open}
      title={editing ? t('classroom.edit') : t('classroom.add')}
      width={820}
      canSave={canEdit && Boolean(initial)}
      saving={save.isPending}
      onOk={submit}
      onClose={onClose}
      testId="classroom-modal"
    >
      {initial ? (
        <Form
          form={form}
          layout="horizontal"
          labelCol={{ span: 4 }}
          wrapperCol={{ span: 19 }}
          initialValues={initial}
          preserve={false}
          name="classroom"
        >
          <ClassroomFields disabled={!canEdit} />
        </Form>
      ) : (
        <Spin className="modal-spin" />
      )}
    </FormModal>
  )
}
