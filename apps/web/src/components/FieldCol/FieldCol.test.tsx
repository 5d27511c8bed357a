import { act, render } from '@testing-library/react'
import { Form, type FormInstance, Row, Select } from 'antd'
import { describe, expect, it } from 'vitest'
import { FieldCol } from './FieldCol'

function renderField(value: unknown, whitespace?: boolean) {
  let form: FormInstance | undefined
  function Harness() {
    const [f] = Form.useForm()
    form = f
    return (
      <Form form={f} initialValues={{ pick: value }}>
        <Row>
          <FieldCol span={12} name="pick" label="pick" required="choose one" whitespace={whitespace}>
            <Select options={[{ value: 4, label: 'four' }]} />
          </FieldCol>
        </Row>
      </Form>
    )
  }
  render(<Harness />)
  return () => act(() => (form as FormInstance).validateFields())
}

describe('FieldCol', () => {
  it('accepts a chosen number under its required rule (no string rule sneaks in)', async () => {
    await expect(renderField(4)()).resolves.toEqual({ pick: 4 })
  })

  it('refuses an empty field, and blanks when whitespace is asked', async () => {
    await expect(renderField(undefined)()).rejects.toMatchObject({
      errorFields: [{ errors: ['choose one'] }],
    })
    await expect(renderField('  ', true)()).rejects.toMatchObject({
      errorFields: [{ errors: ['choose one'] }],
    })
  })
})
