import { App, Form, type FormInstance, type FormProps, Spin } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useFormReset } from '../../lib/useFormReset'
import { FormFreshStart } from './FormFreshStart'
import { FormModal } from './FormModal'

/** What a record dialog looks like whichever record it opens. */
export type RecordDialogLook = {
  /** The form's name; the dialog's test id is `${name}-modal`. */
  name: string
  width: number
  /** How labels and fields sit (antd's layout, labelCol and wrapperCol). */
  formLayout: Pick<FormProps, 'layout' | 'labelCol' | 'wrapperCol'>
  /** i18n keys of the title when adding and when editing. */
  titles: { add: string; edit: string }
}

type Props<V> = {
  look: RecordDialogLook
  open: boolean
  saving: boolean
  onOk: () => void
  onClose: () => void
  form: FormInstance<V>
  /** The record being edited, or null when adding one. */
  recordId: number | null
  /** The form's starting values; undefined while the record loads (a spinner shows). */
  initial: V | undefined
  /** The server's `can` for this record (edit) or its list (add): without it OK stays disabled. */
  canEdit: boolean
  children: ReactNode
}

/** The add / edit dialog of one record: its form from `initial`, reset for each record opened. */
export function RecordFormModal<V>(props: Props<V>) {
  const { look, form, recordId, initial, canEdit, onOk, children, ...modal } = props
  const { t } = useTranslation()
  const { message } = App.useApp()
  useFormReset(form, modal.open && initial ? String(recordId) : null)
  // OK is disabled without `can`; the refusal stays for any other way of submitting.
  const submit = canEdit ? onOk : () => void message.error(t('common.noPermission'))
  return (
    <FormModal
      {...modal}
      title={t(recordId === null ? look.titles.add : look.titles.edit)}
      width={look.width}
      onOk={submit}
      testId={`${look.name}-modal`}
      canSave={canEdit && Boolean(initial)}
    >
      {initial ? (
        <Form form={form} {...look.formLayout} initialValues={initial} preserve={false} name={look.name}>
          {children}
          <FormFreshStart />
        </Form>
      ) : (
        <Spin className="modal-spin" />
      )}
    </FormModal>
  )
}
