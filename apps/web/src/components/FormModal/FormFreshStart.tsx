import { Form } from 'antd'
import { useLayoutEffect } from 'react'

/**
 * The last child of a dialog's Form: a newly mounted Form starts from its own initialValues.
 * A dialog's form store outlives its Form, and rc-field-form lays the values left by the Form
 * before (the record edited last, what was typed there) over a new Form's initialValues; the
 * dialog's useFormReset runs before the reopened dialog mounts its content, so it cannot help.
 * Placed after the fields, this runs once they are registered.
 */
export function FormFreshStart() {
  const form = Form.useFormInstance()
  useLayoutEffect(() => form.resetFields(), [form])
  return null
}
