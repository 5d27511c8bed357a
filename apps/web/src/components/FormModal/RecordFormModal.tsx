import { Form, type FormInstance, type FormProps, Spin } from 'antd'
import type { ComponentProps, ReactNode } from 'react'
import { useFormReset } from '../../lib/useFormReset'
import { FormModal } from './FormModal'

type Props<V> = Omit<ComponentProps<typeof FormModal>, 'canSave' | 'testId' | 'children'> & {
  form: FormInstance<V>
  /** The form's name; the dialog's test id is `${name}-modal`. */
  name: string
  /** How labels and fields sit (antd's layout, labelCol and wrapperCol). */
  formLayout: Pick<FormProps<V>, 'layout' | 'labelCol' | 'wrapperCol'>
  /** The record being edited, or null when adding one. */
  recordId: number | null
  /** The form's starting values; undefined while the record loads (a spinner shows). */
  initial: V | undefined
  /** False for read-only members: OK stays disabled. */
  canEdit: boolean
  children: ReactNode
}

/** The add / edit dialog of one record: its form from `initial`, reset for each record opened. */
export function RecordFormModal<V>(props: Props<V>) {
  const { form, name, formLayout, recordId, initial, canEdit, children, ...modal } = props
  useFormReset(form, modal.open && initial ? String(recordId) : null)
  return (
    <FormModal {...modal} testId={`${name}-modal`} canSave={canEdit && Boolean(initial)}>
      {initial ? (
        <Form form={form} {...formLayout} initialValues={initial} preserve={false} name={name}>
          {children}
        </Form>
      ) : (
        <Spin className="modal-spin" />
      )}
    </FormModal>
  )
}
