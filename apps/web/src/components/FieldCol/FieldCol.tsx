import { Col, Form, type FormItemProps } from 'antd'
import type { Rule } from 'antd/es/form'
import type { ReactNode } from 'react'

type Props = Omit<FormItemProps, 'rules' | 'required' | 'children'> & {
  /** The column's share of the dialog's 24-column row. */
  span: number
  /** The required rule's message; `true` marks the field required for rules that check it themselves. */
  required?: string | boolean
  /** With `required`: blanks alone do not count as filled. */
  whitespace?: boolean
  /** Rules checked after the required one. */
  rules?: Rule[]
  children: ReactNode
}

/** One field of a dialog's grid: a column holding a form item, its required rule first. */
export function FieldCol({ span, required, whitespace, rules = [], children, ...item }: Props) {
  // No `whitespace` key unless asked: async-validator treats a rule of more than `required` as a
  // string rule, and would refuse a chosen number.
  const all: Rule[] =
    typeof required === 'string'
      ? [{ required: true, message: required, ...(whitespace ? { whitespace } : {}) }, ...rules]
      : rules
  return (
    <Col span={span}>
      <Form.Item {...item} required={required === true || undefined} rules={all}>
        {children}
      </Form.Item>
    </Col>
  )
}
